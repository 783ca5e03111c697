// GET /metrics (DESIGN.md, Running a community; docs/operations.md, Metrics): off, it is the 404
// any unknown address gets; on, it asks for METRICS_TOKEN as a bearer and answers Prometheus'
// text format with the families operations.md promises: the process, requests by route pattern
// (never a raw path), the caches, the jobs table's queues, the last ranking refresh. Each server
// keeps a registry of its own. On both databases.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { enqueueJob } from '../../server/jobs/jobs.service.ts';
import { refreshRanksNow, refreshRanksInDatabase } from '../../server/ranks/ranks.scheduler.ts';
import { createUser, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { pageTemplateDir } from './html.ts';
import { onPostgres } from '../postgres-databases.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789abcdef';
const LATER = new Date(Date.now() + 7 * 86_400_000);

let clientDir: string;
let off: TestServer;
let on: TestServer;
let other: TestServer;
let author: TestUser;
let postId: number;

before(async () => {
  clientDir = pageTemplateDir();
  [off, on, other] = await Promise.all([
    startTestServer({ clientDir }),
    startTestServer({ clientDir, env: { METRICS_TOKEN: TOKEN } }),
    startTestServer({ clientDir, env: { METRICS_TOKEN: TOKEN } }),
  ]);
  author = await createUser(on);
  postId = (await createPost(on, author)).id;
});

after(async () => {
  await Promise.all([off?.stop(), on?.stop(), other?.stop()]);
  rmSync(clientDir, { recursive: true, force: true });
});

interface Sample { name: string; labels: Record<string, string>; value: number }
interface Scrape { types: Map<string, string>; samples: Sample[] }

/** Prometheus' text format (version 0.0.4), read strictly: a line that is neither fails the test. */
function parseExposition(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `not a line of Prometheus' text format: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g)) labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, '$1');
    // As Prometheus reads it (Go's ParseFloat): Inf and NaN in any case; prom-client writes "Nan".
    const written = sample[3]!.toLowerCase();
    const value = written === '+inf' ? Infinity : written === '-inf' ? -Infinity : written === 'nan' ? NaN : Number(written);
    assert.ok(!Number.isNaN(value) || written === 'nan', `not a number: ${line}`);
    samples.push({ name: sample[1]!, labels, value });
  }
  return { types, samples };
}

async function scrape(server: TestServer): Promise<Scrape> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  return parseExposition(await res.text());
}

const value = (scraped: Scrape, name: string, labels: Record<string, string> = {}) =>
  scraped.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

const requestCount = (scraped: Scrape, route: string, extra: Record<string, string> = {}) => scraped.samples
  .filter((s) => s.name === 'http_request_duration_seconds_count' && s.labels.route === route
    && Object.entries(extra).every(([k, v]) => s.labels[k] === v))
  .reduce((sum, s) => sum + s.value, 0);

describe('without METRICS_TOKEN', () => {
  test('/metrics is the 404 any unknown address gets, never the app', async () => {
    const unknown = await fetch(`${off.url}/no-such-address`);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await fetch(`${off.url}/metrics`, { headers });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('content-type'), unknown.headers.get('content-type'));
      const body = await res.text();
      assert.match(body, /Page not found/);
      assert.doesNotMatch(body, /# TYPE/);
    }
    assert.equal(off.ctx.metrics, undefined, 'no registry, no timing');
  });
});

test('without METRICS_TOKEN and with a client whose shell renders no page, /metrics is still no shell', async () => {
  // There every other unknown address gets the shell, for the browser's router to answer.
  const shellOnly = mkdtempSync(path.join(tmpdir(), 'beatnik-client-'));
  writeFileSync(path.join(shellOnly, 'index.html'), '<!doctype html><title>shell</title>');
  const server = await startTestServer({ clientDir: shellOnly });
  try {
    assert.equal(await (await fetch(`${server.url}/no-such-address`)).text(), '<!doctype html><title>shell</title>');
    const res = await fetch(`${server.url}/metrics`);
    assert.equal(res.status, 404);
    assert.equal(await res.text(), 'Not found: /metrics');
  } finally {
    await server.stop();
    rmSync(shellOnly, { recursive: true, force: true });
  }
});

describe('with METRICS_TOKEN', () => {
  test('a missing or wrong bearer is the 404 of any unknown address, and no figures', async () => {
    const unknown = await fetch(`${on.url}/no-such-address`);
    // The same page but for the moment it was rendered at.
    const same = (html: string) => html.replace(/"renderedAt":\d+/, '').replaceAll('/metrics', '/no-such-address');
    const unknownBody = same(await unknown.text());
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await fetch(`${on.url}/metrics`, { headers: authorization ? { authorization } : {} });
      assert.equal(res.status, 404, String(authorization));
      const body = await res.text();
      assert.equal(same(body), unknownBody, String(authorization));
      assert.ok(!body.includes('http_request_duration_seconds'), String(authorization));
    }
  });

  test('the token answers the text format, never cached, with every family promised', async () => {
    const res = await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = await res.text();
    const { types } = parseExposition(body);
    const promised: Record<string, string> = {
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
      nodejs_eventloop_lag_p99_seconds: 'gauge',
      http_request_duration_seconds: 'histogram',
      beatnik_cache_hits_total: 'counter',
      beatnik_cache_misses_total: 'counter',
      beatnik_queue_depth: 'gauge',
      beatnik_rank_refresh_duration_seconds: 'gauge',
      beatnik_rank_refresh_timestamp_seconds: 'gauge',
    };
    for (const [name, type] of Object.entries(promised)) assert.equal(types.get(name), type, name);
    // From the backups table (server/backups/): none made yet.
    assert.equal(types.get('beatnik_last_backup_timestamp_seconds'), 'gauge');
    assert.match(body, /^beatnik_last_backup_timestamp_seconds 0$/m);
  });

  test('a request is labelled with its route pattern, never its path', async () => {
    const reader = await createUser(on);
    await on.api('GET', '/api/posts/12');
    await on.api('GET', `/api/posts/${postId}`);
    await on.api('GET', `/api/posts/${postId}`, { token: reader.token });
    await on.api('GET', `/api/posts/${postId}/rank`);
    await on.api('GET', `/api/users/${author.id}/posts`);
    await on.api('GET', '/api/no-such-route/12');
    for (const path of [`/post/${postId}`, '/post/12', '/beatnik/' + author.username, '/no-such-page-12', '/uploads/12.jpg', '/feed.xml']) {
      await (await fetch(on.url + path)).arrayBuffer();
    }
    const scraped = await scrape(on);
    assert.ok(requestCount(scraped, '/api/posts/:id', { method: 'GET', status: '404' }) >= 1, 'the missing article');
    assert.ok(requestCount(scraped, '/api/posts/:id', { method: 'GET', status: '200' }) >= 2, 'read without and with a token');
    assert.ok(requestCount(scraped, '/api/posts/:id/rank') >= 1);
    assert.ok(requestCount(scraped, '/api/users/:id/posts') >= 1);
    assert.ok(requestCount(scraped, '/api/auth/register', { method: 'POST', status: '201' }) >= 1);
    assert.ok(requestCount(scraped, '/post/:id', { status: '200' }) >= 1);
    assert.ok(requestCount(scraped, '/post/:id', { status: '404' }) >= 1);
    assert.ok(requestCount(scraped, '/beatnik/:username') >= 1);
    assert.ok(requestCount(scraped, '/uploads/*', { status: '404' }) >= 1);
    assert.ok(requestCount(scraped, '/feed.xml') >= 1);
    assert.ok(requestCount(scraped, 'unmatched', { status: '404' }) >= 2, 'an unknown API path and an unknown page');
    assert.ok(requestCount(scraped, '/metrics') >= 1);
    const labels = scraped.samples.flatMap((s) => Object.values(s.labels));
    const raw = labels.filter((label) => label.includes('/12') || label.includes(`/${postId}`) || label.includes(author.username) || label.includes('no-such'));
    assert.deepEqual(raw, []);
  });

  test('the request histogram reads as Prometheus reads one: cumulative buckets, +Inf the count', async () => {
    for (let i = 0; i < 3; i++) await on.api('GET', '/api/posts');
    const scraped = await scrape(on);
    const series = scraped.samples.filter((s) => s.name === 'http_request_duration_seconds_count');
    assert.ok(series.length > 0);
    for (const { labels, value: count } of series) {
      const same = (s: Sample) => ['method', 'route', 'status'].every((name) => s.labels[name] === labels[name]);
      const buckets = scraped.samples.filter((s) => s.name === 'http_request_duration_seconds_bucket' && same(s));
      assert.deepEqual(buckets.map((s) => s.labels.le), ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
      assert.deepEqual(buckets.map((s) => s.value), [...buckets.map((s) => s.value)].sort((x, y) => x - y), 'cumulative');
      assert.equal(buckets.at(-1)!.value, count);
      const sum = scraped.samples.find((s) => s.name === 'http_request_duration_seconds_sum' && same(s))!.value;
      assert.ok(sum > 0 && sum < count * 10, `${sum} for ${count}`);
    }
    assert.ok(requestCount(scraped, '/api/posts', { method: 'GET', status: '200' }) >= 3);
  });

  test('each server counts its own requests', async () => {
    await on.api('GET', `/api/posts/${postId}`);
    const theirs = await scrape(other);
    assert.equal(requestCount(theirs, '/api/posts/:id'), 0);
    assert.ok(requestCount(await scrape(on), '/api/posts/:id') >= 1);
  });

  test('the read cache\'s hits and misses', async () => {
    const before = await scrape(on);
    await on.api('POST', '/api/posts', { token: author.token, json: {} }); // a write: the cache is emptied
    await on.api('GET', '/api/posts?limit=3');
    await on.api('GET', '/api/posts?limit=3');
    const scraped = await scrape(on);
    const moved = (name: string) => value(scraped, name, { cache: 'lists' })! - value(before, name, { cache: 'lists' })!;
    assert.ok(moved('beatnik_cache_misses_total') >= 1);
    assert.ok(moved('beatnik_cache_hits_total') >= 1);
    for (const cache of ['lists', 'pages', 'articles', 'documents']) {
      assert.equal(typeof value(scraped, 'beatnik_cache_hits_total', { cache }), 'number', cache);
    }
    assert.ok(value(scraped, 'beatnik_cache_misses_total', { cache: 'pages' })! >= 1, 'the pages rendered above');
    assert.ok(value(scraped, 'beatnik_cache_misses_total', { cache: 'documents' })! >= 1, 'the feed read above');
  });

  test('a queued mail job, and a failed job of another kind, show in the queues\' depths', async () => {
    const depth = async (queue: string, state: string) => value(await scrape(on), 'beatnik_queue_depth', { queue, state });
    const mailBefore = (await depth('mail', 'pending'))!;
    await enqueueJob(on.ctx.db, { kind: 'mail', payload: { to: 'ana@example.org' }, runAt: LATER });
    assert.equal(await depth('mail', 'pending'), mailBefore + 1);
    await enqueueJob(on.ctx.db, { kind: 'no-such-kind', payload: {}, runAt: LATER });
    await sqlRows(on.ctx.db, "UPDATE jobs SET state = 'failed' WHERE kind = 'no-such-kind'");
    const scraped = await scrape(on);
    assert.equal(value(scraped, 'beatnik_queue_depth', { queue: 'other', state: 'failed' }), 1);
    assert.equal(value(scraped, 'beatnik_queue_depth', { queue: 'federation', state: 'pending' }), 0, 'exported before any kind joins it');
    assert.equal(value(scraped, 'beatnik_queue_depth', { queue: 'federation', state: 'failed' }), 0);
  });

  test('a ranking refresh sets its duration and time', async () => {
    const started = Date.now() / 1000;
    await refreshRanksNow(on.ctx, refreshRanksInDatabase(on.ctx.db), new AbortController().signal);
    const scraped = await scrape(on);
    const at = value(scraped, 'beatnik_rank_refresh_timestamp_seconds')!;
    assert.ok(at >= started - 0.001 && at <= Date.now() / 1000, `${at} after ${started}`);
    const seconds = value(scraped, 'beatnik_rank_refresh_duration_seconds')!;
    assert.ok(seconds > 0 && seconds < 60, String(seconds));
  });

  test('the last backup\'s time, once handed in', async () => {
    const at = new Date('2026-12-01T04:00:00Z');
    on.ctx.metrics!.reportLastBackup(() => at);
    assert.equal(value(await scrape(on), 'beatnik_last_backup_timestamp_seconds'), at.getTime() / 1000);
    on.ctx.metrics!.reportLastBackup(async () => undefined);
    assert.equal(value(await scrape(on), 'beatnik_last_backup_timestamp_seconds'), 0, 'none yet');
  });
});

test('two instances on one PostgreSQL database: their own requests, the shared queues', {
  skip: onPostgres ? false : 'several instances share a PostgreSQL database: run under npm run test:pg',
}, async () => {
  const second = await startTestServer({ clientDir, config: { databaseUrl: on.ctx.config.databaseUrl, jwtSecret: on.ctx.config.jwtSecret }, env: { METRICS_TOKEN: TOKEN } });
  try {
    await enqueueJob(on.ctx.db, { kind: 'mail', payload: { to: 'bo@example.org' }, runAt: LATER });
    const [first, theirs] = [await scrape(on), await scrape(second)];
    assert.equal(value(theirs, 'beatnik_queue_depth', { queue: 'mail', state: 'pending' }),
      value(first, 'beatnik_queue_depth', { queue: 'mail', state: 'pending' }));
    assert.equal(requestCount(theirs, '/api/posts/:id'), 0, 'the requests made to the first instance');
    assert.ok(requestCount(first, '/api/posts/:id') >= 1);
  } finally {
    await second.stop();
  }
});

test('METRICS_TOKEN is at least 32 characters, and never echoed', () => {
  const short = 'short-secret';
  assert.throws(() => loadConfig({ METRICS_TOKEN: short }), (err: Error) => err instanceof ConfigError && !err.message.includes(short));
  assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
  assert.equal(loadConfig({ METRICS_TOKEN: ' ' }).metricsToken, null);
});
