// npm run bench -- [--duration S] [--warmup S] [--connections N] [--data-dir DIR] [--reseed]
// Seeds (or reuses) a large database, starts the real server, measures each hot endpoint with
// autocannon against a bare-Express ceiling measured around every row, with the server's CPU
// time per request beside req/s, and writes docs/performance.md. Loopback only.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import type autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { recomputeRanks } from '../server/ranks/ranks.refresh.ts';
import { rowRunner, type Load, type Row } from './bench/measure.ts';
import { rssMb, startBeatnik, startCeiling, stop } from './bench/processes.ts';
import { BENCH_BLOCK, renderReport } from './bench/report.ts';
import { PERFORMANCE_DOC, writeBlock } from './performance-doc.ts';
import { signAccessToken } from '../server/auth/tokens.ts';
import type { Config } from '../server/config.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' }, warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'data-dir': { type: 'string', default: 'data/bench' }, reseed: { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const DATA_DIR = path.resolve(args['data-dir']!);
const DB_FILE = path.join(DATA_DIR, 'beatnik.db');
const IDLE_WAIT_S = 65;
const SIZE = { users: 10_000, posts: 100_000, ratings: 1_000_000, comments: 300_000, follows: 50_000 };
const MIXED_ROW = 'mixed: GET /api/posts and /api/frontpage';
const MIXED_RATES = { visits: 100, ratings: 20 };

function ensureData(): void {
  if (!args.reseed && existsSync(DB_FILE)) {
    const sqlite = new SQLite(DB_FILE, { readonly: true });
    const posts = sqlite.prepare('SELECT count(*) FROM posts').pluck().get() as number;
    sqlite.close();
    if (posts >= SIZE.posts * 0.95) return;
  }
  console.log(`Seeding ${DATA_DIR} …`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--data-dir', DATA_DIR, '--reset',
    ...Object.entries(SIZE).flatMap(([key, value]) => [`--${key}`, String(value)])], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('seeding failed');
}

/** Sessions for seeded users, signed with the data directory's secret (logging in 200 users
 * would spend most of a minute in argon2, which is not what is measured here). */
function tokens(count: number): string[] {
  const secret = readFileSync(path.join(DATA_DIR, 'jwt-secret'), 'utf8').trim();
  const sqlite = new SQLite(DB_FILE, { readonly: true });
  const users = (sqlite.prepare(TOKEN_USERS).all() as Array<{ id: number; token_version: number }>).slice(0, count);
  sqlite.close();
  const config = { jwtSecret: secret, tokenTtlSeconds: 3600 } as Config;
  return users.map((user) => signAccessToken(config, user));
}

const TOKEN_USERS = 'SELECT id, token_version FROM users WHERE id > 1 AND banned_at IS NULL ORDER BY id LIMIT 200';

/** Active articles (archived ones answer 404 by design), none by a user whose token rates them. */
function activePostIds(): number[] {
  const sqlite = new SQLite(DB_FILE, { readonly: true });
  const ids = sqlite.prepare(`SELECT id FROM posts WHERE archived = 0 AND author_id NOT IN (SELECT id FROM (${TOKEN_USERS}))`)
    .pluck().all() as number[];
  sqlite.close();
  return ids;
}

/** The visits every article has counted so far. */
function countedVisits(): number {
  const sqlite = new SQLite(DB_FILE, { readonly: true });
  const visits = sqlite.prepare('SELECT sum(visits) FROM posts').pluck().get() as number;
  sqlite.close();
  return visits;
}

/**
 * Each request from a reader never seen before, so each one really counts a visit: visits are
 * told apart by the client's address, which the server takes from X-Forwarded-For when it trusts
 * the loopback proxy. The addresses start at a random point of 10.0.0.0/8 so that a second run
 * within the 30-minute visit window does not repeat the first one's readers.
 */
function newReaders(): () => string {
  let next = Math.floor(Math.random() * 2 ** 23);
  return () => {
    const n = next++ % 2 ** 24;
    return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
  };
}

async function main(): Promise<void> {
  ensureData();
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const ids = activePostIds();
  const ceiling = await startCeiling();
  const server = await startBeatnik(DATA_DIR, { TRUSTED_PROXY: 'loopback' });
  const startRss = rssMb(server.child.pid!);
  const row = rowRunner({
    server: { url: server.url, pid: server.child.pid! }, ceiling: { url: ceiling.url, pid: ceiling.child.pid! },
    seconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS,
  });
  const randomPost = () => ids[Math.floor(Math.random() * ids.length)]!;
  const reader = newReaders();
  const visits = (connections: number, options: Partial<autocannon.Options> = {}): Load => ({
    path: '/api/posts/1', connections, options: {
      ...options,
      requests: [{ setupRequest: (req) => ({ ...req, path: `/api/posts/${randomPost()}`, headers: { ...req.headers, 'x-forwarded-for': reader() } }) }],
    },
  });
  const pool = tokens(200);
  const authed = (method: string, body: () => string, pathOf: () => string) => [{
    setupRequest: (req: any) => ({
      ...req, method, path: pathOf(), body: body(),
      headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${pool[Math.floor(Math.random() * pool.length)]}` },
    }),
  }];
  const ratings = (connections: number, options: Partial<autocannon.Options> = {}): Load => ({
    path: '/api/posts/1/rate', connections, options: {
      ...options,
      requests: authed('POST', () => JSON.stringify({ rating: 1 + Math.floor(Math.random() * 5) }), () => `/api/posts/${randomPost()}/rate`),
    },
  });

  const rows: Row[] = [];
  rows.push(await row('GET /api/frontpage', '/api/frontpage'));
  rows.push(await row('GET /api/posts', '/api/posts'));
  const visitsBefore = countedVisits();
  const visitRow = await row('GET /api/posts/{id} (counts a visit)', visits(CONNECTIONS));
  rows.push(visitRow);
  const visitCount = { requests: visitRow.warmupSent + visitRow.sent, counted: countedVisits() - visitsBefore };
  // Articles this client has read already: within 30 minutes a read counts no visit again.
  const reread = ids.slice(0, 500);
  for (const id of reread) await fetch(`${server.url}/api/posts/${id}`);
  rows.push(await row('GET /api/posts/{id} (re-read, no visit)', {
    path: '/api/posts/1', connections: CONNECTIONS,
    options: { requests: [{ setupRequest: (req) => ({ ...req, path: `/api/posts/${reread[Math.floor(Math.random() * reread.length)]}` }) }] },
  }));
  rows.push(await row('GET /api/ranks', '/api/ranks'));
  rows.push(await row('GET /api/ranks?hashtag=ja&time_period=30d', '/api/ranks?hashtag=ja&time_period=30d'));
  rows.push(await row('GET /api/ranks?criteria=visits&time_period=7d', '/api/ranks?criteria=visits&time_period=7d'));
  rows.push(await row('GET /api/authors', '/api/authors?limit=50'));
  rows.push(await row('POST /api/posts/{id}/rate', ratings(CONNECTIONS)));
  rows.push(await row('POST /api/posts/{id}/comments', {
    path: '/api/posts/1/comments', connections: CONNECTIONS,
    options: { requests: authed('POST', () => JSON.stringify({ content: 'A benchmark comment' }), () => `/api/posts/${randomPost()}/comments`) },
  }));
  rows.push(await row(MIXED_ROW, {
    path: '/api/posts', connections: CONNECTIONS,
    options: { requests: [{ path: '/api/posts' }, { path: '/api/frontpage' }] },
  }, [visits(10, { overallRate: MIXED_RATES.visits }), ratings(4, { overallRate: MIXED_RATES.ratings })]));
  const loadedRss = rssMb(server.child.pid!);
  await Promise.all([stop(server.child), stop(ceiling.child)]);

  // Idle: long enough for the WAL checkpoint worker, started by the start-up refresh, to exit.
  const idle = await startBeatnik(DATA_DIR);
  await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_S * 1000));
  const idleRss = rssMb(idle.child.pid!);
  await stop(idle.child);

  const sqlite = new SQLite(DB_FILE);
  recomputeRanks(sqlite); // warm the page cache once, as the server's start-up refresh does
  const refresh = recomputeRanks(sqlite);
  sqlite.close();

  const report = renderReport({
    rows, mixedRow: MIXED_ROW, mixedRates: MIXED_RATES, visits: visitCount,
    coldStartMs: server.startMs, startRssMb: startRss, idleRssMb: idleRss,
    idleWaitS: IDLE_WAIT_S, loadedRssMb: loadedRss,
    refreshMs: refresh.ms, refreshedPosts: refresh.posts, duration: DURATION, warmup: WARMUP, connections: CONNECTIONS,
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    size: SIZE,
  });
  writeBlock(BENCH_BLOCK, report);
  console.log(`\nCold start ${server.startMs} ms · RSS after start ${startRss} MB · idle RSS ${idleRss} MB · RSS after load ${loadedRss} MB · ranking refresh ${refresh.ms} ms over ${refresh.posts} posts`);
  console.log(`Wrote ${PERFORMANCE_DOC}`);
}

main().catch((err) => {
  console.error('bench: failed:', err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
