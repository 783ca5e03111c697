// npm run bench -- [--duration S] [--connections N] [--data-dir DIR] [--reseed]
// Seeds (or reuses) a large database, starts the real server, measures each hot endpoint with
// autocannon against a bare-Express ceiling, and writes docs/performance.md. Loopback only.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { recomputeRanks } from '../server/ranks/ranks.service.ts';
import { rssMb, startBeatnik, startCeiling, stop } from './bench/processes.ts';
import { BENCH_BLOCK, renderReport, type Row } from './bench/report.ts';
import { PERFORMANCE_DOC, writeBlock } from './performance-doc.ts';
import { signAccessToken } from '../server/auth/tokens.ts';
import type { Config } from '../server/config.ts';
import { openDatabase } from '../server/db.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' },
    'data-dir': { type: 'string', default: 'data/bench' }, reseed: { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const DATA_DIR = path.resolve(args['data-dir']!);
const DB_FILE = path.join(DATA_DIR, 'beatnik.db');
const IDLE_WAIT_S = 65;
const SIZE = { users: 10_000, posts: 100_000, ratings: 1_000_000, comments: 300_000, follows: 50_000 };

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

async function measure(name: string, url: string, options: Partial<autocannon.Options> = {}): Promise<Row> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...options });
  const errors = result.errors + result.timeouts + result.non2xx;
  const row: Row = { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors };
  console.log(`${name.padEnd(38)} ${String(row.rps).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms${errors ? `  (${errors} errors)` : ''}`);
  return row;
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

async function main(): Promise<void> {
  ensureData();
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const ids = activePostIds();
  const ceiling = await startCeiling();
  const rows: Row[] = [];
  rows.push(await measure('ceiling: bare Express, fixed JSON', `${ceiling.url}/`));
  await stop(ceiling.child);

  const server = await startBeatnik(DATA_DIR);
  const startRss = rssMb(server.child.pid!);
  const randomPost = () => ids[Math.floor(Math.random() * ids.length)]!;
  const reads: Array<[string, string, Partial<autocannon.Options>?]> = [
    ['GET /api/frontpage', '/api/frontpage'],
    ['GET /api/posts', '/api/posts'],
    ['GET /api/posts/{id} (counts a visit)', '/api/posts/1', { requests: [{ setupRequest: (req) => ({ ...req, path: `/api/posts/${randomPost()}` }) }] }],
    ['GET /api/ranks', '/api/ranks'],
    ['GET /api/ranks?hashtag=ja&time_period=30d', '/api/ranks?hashtag=ja&time_period=30d'],
    ['GET /api/ranks?criteria=visits&time_period=7d', '/api/ranks?criteria=visits&time_period=7d'],
    ['GET /api/authors', '/api/authors?limit=50'],
  ];
  for (const [name, urlPath, options] of reads) rows.push(await measure(name, server.url + urlPath, options));
  // Articles this client has read already: within 30 minutes a read counts no visit again.
  const reread = ids.slice(0, 500);
  const client = { 'user-agent': 'beatnik-bench' }; // anonymous visits are told apart by address and browser
  for (const id of reread) await fetch(`${server.url}/api/posts/${id}`, { headers: client });
  rows.splice(4, 0, await measure('GET /api/posts/{id} (re-read, no visit)', `${server.url}/api/posts/1`,
    { headers: client, requests: [{ setupRequest: (req) => ({ ...req, path: `/api/posts/${reread[Math.floor(Math.random() * reread.length)]}` }) }] }));

  const pool = tokens(200);
  const authed = (method: string, body: () => string, pathOf: () => string) => ({
    requests: [{
      setupRequest: (req: any) => ({
        ...req, method, path: pathOf(), body: body(),
        headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${pool[Math.floor(Math.random() * pool.length)]}` },
      }),
    }],
  });
  rows.push(await measure('POST /api/posts/{id}/rate', `${server.url}/api/posts/1/rate`,
    authed('POST', () => JSON.stringify({ rating: 1 + Math.floor(Math.random() * 5) }), () => `/api/posts/${randomPost()}/rate`)));
  rows.push(await measure('POST /api/posts/{id}/comments', `${server.url}/api/posts/1/comments`,
    authed('POST', () => JSON.stringify({ content: 'A benchmark comment' }), () => `/api/posts/${randomPost()}/comments`)));
  const loadedRss = rssMb(server.child.pid!);
  await stop(server.child);

  // Idle: long enough for the WAL checkpoint worker, started by the start-up refresh, to exit.
  const idle = await startBeatnik(DATA_DIR);
  await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_S * 1000));
  const idleRss = rssMb(idle.child.pid!);
  await stop(idle.child);

  const db = openDatabase(DB_FILE);
  await recomputeRanks(db); // warm the page cache once, as the server's start-up refresh does
  const refresh = await recomputeRanks(db);
  await db.destroy();

  const report = renderReport({
    rows, ceilingRps: rows[0]!.rps, coldStartMs: server.startMs, startRssMb: startRss, idleRssMb: idleRss,
    idleWaitS: IDLE_WAIT_S, loadedRssMb: loadedRss,
    refreshMs: refresh.ms, refreshedPosts: refresh.posts, duration: DURATION, connections: CONNECTIONS,
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
