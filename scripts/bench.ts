// npm run bench -- [--duration S] [--warmup S] [--connections N] [--data-dir DIR] [--reseed]
//                  [--refresh-data-dir DIR] [--refreshes N] [--only refresh|postgres] [--sqlite-only]
//                  [--server FILE --print-only]: measure another build (e.g. an older checkout's
//                  dist/server/main.js) and print its table without writing the doc
// Seeds (or reuses) a large database, starts the real server, measures each hot endpoint with
// autocannon against a bare-Express ceiling measured around every row, with the server's CPU
// time per request beside req/s, then the server's ranking refreshes on a database of a million
// articles while requests are timed (`--only refresh`: just that, printed), the same rows on
// PostgreSQL over a copy of the database when postgresql-15 is installed (not with --sqlite-only;
// `--only postgres`: just those, printed), and writes
// docs/performance.md. Loopback only.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import type autocannon from 'autocannon';
import { rebuildRanks } from '../server/sqlite/sqlite.ranks-rebuild.ts';
import { rowRunner, type Load, type Row, type Server } from './bench/measure.ts';
import { rssMb, startBeatnik, startCeiling, stop, type Started } from './bench/processes.ts';
import { postgresCopyOf } from './bench/postgres.ts';
import { measureRefreshes } from './bench/refresh.ts';
import { postgresAvailable } from './postgres-cluster.ts';
import { openPostgres } from '../server/postgres/postgres.database.ts';
import { BENCH_BLOCK, RANK_ROW, RANK_STEADY, SEARCH_ROW, renderRefresh, renderReport, renderSideBySide } from './bench/report.ts';
import { PERFORMANCE_DOC, writeBlock } from './performance-doc.ts';
import { signAccessToken } from '../server/auth/tokens.ts';
import type { Config } from '../server/config.ts';
import { migrateToLatest, openDatabase, type DB } from '../server/db.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' }, warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'data-dir': { type: 'string', default: 'data/bench' }, reseed: { type: 'boolean', default: false },
    server: { type: 'string', default: 'dist/server/main.js' }, 'print-only': { type: 'boolean', default: false },
    'refresh-data-dir': { type: 'string', default: 'data/bench-1m' }, refreshes: { type: 'string', default: '2' },
    only: { type: 'string' }, 'sqlite-only': { type: 'boolean', default: false },
  },
});
if (args.only !== undefined && args.only !== 'refresh' && args.only !== 'postgres') throw new Error('--only takes "refresh" or "postgres"');
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const DATA_DIR = path.resolve(args['data-dir']!);
const DB_FILE = path.join(DATA_DIR, 'beatnik.db');
const IDLE_WAIT_S = 65;
const SIZE = { users: 10_000, posts: 100_000, ratings: 1_000_000, comments: 300_000, follows: 50_000 };
const REFRESH_DATA_DIR = path.resolve(args['refresh-data-dir']!);
/** The refresh row's database: ten times the articles, pictures left out (a refresh never reads them). */
const REFRESH_SIZE = { users: 10_000, posts: 1_000_000, ratings: 1_000_000, comments: 300_000, follows: 50_000, images: 0 };
const MIXED_ROW = 'mixed: GET /api/posts and /api/frontpage';
const MIXED_RATES = { visits: 100, ratings: 20 };
/** What readers type, in turn on each connection: common words, two-word queries, unfinished words. */
const READERS_SEARCHES = ['coffee', 'jazz', 'rain on the harbor', 'typewri', 'the desert', 'bookshop', 'midnight radio', 'ne'];

/** Opens a bench database (the main one unless `dataDir` says) for one look, through Kysely as the server does. */
async function withDatabase<T>(look: (db: DB) => Promise<T>, dataDir = DATA_DIR): Promise<T> {
  const db = openDatabase(path.join(dataDir, 'beatnik.db'));
  try {
    return await look(db);
  } finally {
    await db.destroy();
  }
}

async function ensureData(dataDir: string, size: { posts: number } & Record<string, number>): Promise<void> {
  if (!args.reseed && existsSync(path.join(dataDir, 'beatnik.db'))) {
    const posts = await withDatabase(async (db) => {
      // A database seeded by an older version is brought up to date here, before any server's
      // start is timed (0006 indexes every article for search: a minute or two at a million).
      const applied = await migrateToLatest(db);
      if (applied.length > 0) console.log(`Migrated ${dataDir}: ${applied.join(', ')}`);
      return Number((await db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    }, dataDir);
    if (posts >= size.posts * 0.95) return;
  }
  console.log(`Seeding ${dataDir} …`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--data-dir', dataDir, '--reset',
    ...Object.entries(size).flatMap(([key, value]) => [`--${key}`, String(value)])], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('seeding failed');
}

/** Sessions for seeded users, signed with the data directory's secret (logging in 200 users
 * would spend most of a minute in argon2, which is not what is measured here). */
async function tokens(count: number, dataDir = DATA_DIR): Promise<string[]> {
  const secret = readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
  const users = (await withDatabase((db) => tokenUsers(db).execute(), dataDir)).slice(0, count);
  const config = { jwtSecret: secret, tokenTtlSeconds: 3600 } as Config;
  return users.map((user) => signAccessToken(config, user));
}

const tokenUsers = (db: DB) => db.selectFrom('users').select(['id', 'token_version'])
  .where('id', '>', 1).where('banned_at', 'is', null).orderBy('id').limit(200);

/** Active articles (archived ones answer 404 by design), none by a user whose token rates them. */
function activePostIds(dataDir = DATA_DIR): Promise<number[]> {
  return withDatabase(async (db) => (await db.selectFrom('posts').select('id').where('archived', '=', 0)
    .where('author_id', 'not in', db.selectFrom(tokenUsers(db).as('raters')).select('raters.id'))
    .execute()).map((row) => row.id), dataDir);
}

/** The author with the most articles: the profile page the bench renders. */
async function busiestAuthor(): Promise<string> {
  return withDatabase(async (db) => (await db.selectFrom('users').select('username').orderBy('posts_count', 'desc').limit(1)
    .executeTakeFirstOrThrow()).username);
}

/** The visits every article has counted so far. */
async function countedVisits(db: DB): Promise<number> {
  return Number((await db.selectFrom('posts').select((eb) => eb.fn.sum<number>('visits').as('n')).executeTakeFirstOrThrow()).n);
}

/** The server's own refreshes on the million-article database, with requests timed meanwhile. */
async function refreshRow() {
  const [ids, pool] = [await activePostIds(REFRESH_DATA_DIR), await tokens(200, REFRESH_DATA_DIR)];
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  return measureRefreshes(args.server!, REFRESH_DATA_DIR, Number(args.refreshes), {
    rate: (url) => fetch(`${url}/api/posts/${pick(ids)}/rate`, {
      method: 'POST', body: JSON.stringify({ rating: 1 + Math.floor(Math.random() * 5) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pick(pool)}` },
    }),
  });
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

/** The rows on a server using PostgreSQL, with a copy of the bench database in a cluster of its own. */
async function measurePostgres(ceiling: Started, ids: number[], pool: string[], author: string) {
  console.log('Copying the bench database into PostgreSQL …');
  const pg = await postgresCopyOf(DB_FILE);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'beatnik-bench-pg-'));
  const db = openPostgres(pg.url);
  try {
    // The SQLite data directory's secret: the sessions signed for its users work here too.
    const secret = readFileSync(path.join(DATA_DIR, 'jwt-secret'), 'utf8').trim();
    const server = await startBeatnik(args.server!, dataDir, { TRUSTED_PROXY: 'loopback', DATABASE_URL: pg.url, JWT_SECRET: secret });
    try {
      const measured = await measureRows({ url: server.url, pid: server.child.pid!, helpers: pg.processes }, ceiling, ids, pool, author,
        () => countedVisits(db));
      return { ...measured, copyMs: pg.copyMs };
    } finally {
      await stop(server.child);
    }
  } finally {
    await db.destroy();
    pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Every row, against one running server (on either database; `server.helpers` are the database's
 * processes when it has its own), each beside the ceiling. Returns the rows and the visit check.
 */
async function measureRows(
  server: Server, ceiling: Started, ids: number[], pool: string[], author: string, countVisits: () => Promise<number>,
): Promise<{ rows: Row[]; visitCount: { requests: number; counted: number } }> {
  const row = rowRunner({
    server, ceiling: { url: ceiling.url, pid: ceiling.child.pid! },
    seconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS,
  });
  const randomPost = () => ids[Math.floor(Math.random() * ids.length)]!;
  const reader = newReaders();
  const visits = (connections: number, options: Partial<autocannon.Options> = {}, pathOf = (id: number) => `/api/posts/${id}`, pick = randomPost): Load => ({
    path: pathOf(1), connections, options: {
      ...options,
      requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(pick()), headers: { ...req.headers, 'x-forwarded-for': reader() } }) }],
    },
  });
  const rotate = (list: number[], pathOf: (id: number) => string, options: Partial<autocannon.Options> = {}): Load => ({
    path: pathOf(list[0]!), connections: CONNECTIONS,
    options: { ...options, requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(list[Math.floor(Math.random() * list.length)]!) }) }] },
  });
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
  const visitsBefore = await countVisits();
  const visitRow = await row('GET /api/posts/{id} (counts a visit)', visits(CONNECTIONS));
  rows.push(visitRow);
  const visitCount = { requests: visitRow.warmupSent + visitRow.sent, counted: await countVisits() - visitsBefore };
  // Articles this client has read already: within 30 minutes a read counts no visit again.
  const reread = ids.slice(0, 500);
  for (const id of reread) await fetch(`${server.url}/api/posts/${id}`);
  rows.push(await row('GET /api/posts/{id} (re-read, no visit)', rotate(reread, (id) => `/api/posts/${id}`)));
  rows.push(await row('GET /api/ranks', '/api/ranks'));
  rows.push(await row('GET /api/ranks?hashtag=ja&time_period=30d', '/api/ranks?hashtag=ja&time_period=30d'));
  rows.push(await row('GET /api/ranks?criteria=visits&time_period=7d', '/api/ranks?criteria=visits&time_period=7d'));
  rows.push(await row('GET /api/authors', '/api/authors?limit=50'));
  // The explained rank (issue 17): one read by key of what the last refresh stored.
  rows.push(await row(RANK_ROW, rotate(reread, (id) => `/api/posts/${id}/rank`)));
  // Its latency, the target's measure: at a steady rate (as readers arrive) rather than full load.
  rows.push(await row(RANK_STEADY.row, { rate: RANK_STEADY.rate, path: () => `/api/posts/${reread[Math.floor(Math.random() * reread.length)]}/rank` }));
  // An author's mojo ledger, its latest page: the profile's 'How this mojo was earned'.
  rows.push(await row('GET /api/users/{id}/mojo', rotate(Array.from({ length: 1000 }, (_, i) => i + 1), (id) => `/api/users/${id}/mojo`)));
  rows.push(await row(SEARCH_ROW, {
    path: '/api/search', connections: CONNECTIONS,
    options: { requests: READERS_SEARCHES.map((q) => ({ path: `/api/search?q=${encodeURIComponent(q)}` })) },
  }));
  rows.push(await row('POST /api/posts/{id}/rate', ratings(CONNECTIONS)));
  rows.push(await row('POST /api/posts/{id}/comments', {
    path: '/api/posts/1/comments', connections: CONNECTIONS,
    options: { requests: authed('POST', () => JSON.stringify({ content: 'A benchmark comment' }), () => `/api/posts/${randomPost()}/comments`) },
  }));
  // The pages the server renders (server/pages/), answered from their HTML cache as the lists are
  // from theirs, and asked for as a browser asks, accepting br: a page is sent as the compressed
  // copy its cache entry made once. An article's page from a set of 50 read already (the cache
  // keeps each for 5 s), then with a new reader each time (a visit counted on each), then a
  // different article each time (rendered on each: what a crawler walking the archive costs).
  const browser = { headers: { 'accept-encoding': 'br, gzip' } };
  const page = (path: string): Load => ({ path, connections: CONNECTIONS, options: browser });
  const articlePage = (id: number) => `/post/${id}`;
  const popular = ids.slice(0, 50);
  const pickPopular = () => popular[Math.floor(Math.random() * popular.length)]!;
  for (const id of popular) await fetch(server.url + articlePage(id));
  rows.push(await row('page /', page('/')));
  rows.push(await row('page /post/{id} (re-read, no visit)', rotate(popular, articlePage, browser)));
  rows.push(await row('page /post/{id} (counts a visit)', visits(CONNECTIONS, browser, articlePage, pickPopular)));
  rows.push(await row('page /post/{id} (rendered each time)', rotate(ids, articlePage, browser)));
  rows.push(await row('page /ranks', page('/ranks')));
  rows.push(await row('page /authors', page('/authors')));
  rows.push(await row('page /beatnik/{username}', page(`/beatnik/${encodeURIComponent(author)}`)));
  rows.push(await row(MIXED_ROW, {
    path: '/api/posts', connections: CONNECTIONS,
    options: { requests: [{ path: '/api/posts' }, { path: '/api/frontpage' }] },
  }, [visits(10, { overallRate: MIXED_RATES.visits }), ratings(4, { overallRate: MIXED_RATES.ratings })]));
  return { rows, visitCount };
}

async function main(): Promise<void> {
  if (args.only !== 'refresh') await ensureData(DATA_DIR, SIZE);
  if (args.only !== 'postgres') await ensureData(REFRESH_DATA_DIR, REFRESH_SIZE);
  if (args.server === 'dist/server/main.js') {
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (args.only === 'refresh') {
    console.log(`\n${renderRefresh(await refreshRow(), REFRESH_SIZE.posts)}`);
    return;
  }
  const ids = await activePostIds();
  const pool = await tokens(200);
  const author = await busiestAuthor();
  const ceiling = await startCeiling();
  if (args.only === 'postgres') {
    await measurePostgres(ceiling, ids, pool, author); // prints its rows as it goes
    await stop(ceiling.child);
    return;
  }
  const server = await startBeatnik(args.server!, DATA_DIR, { TRUSTED_PROXY: 'loopback' });
  const startRss = rssMb(server.child.pid!);
  const { rows, visitCount } = await measureRows({ url: server.url, pid: server.child.pid! }, ceiling, ids, pool, author,
    () => withDatabase(countedVisits));
  const loadedRss = rssMb(server.child.pid!);
  await stop(server.child);
  // The same rows on PostgreSQL, over a copy of the database just measured.
  const postgres = args['sqlite-only'] || !postgresAvailable() ? undefined : await measurePostgres(ceiling, ids, pool, author);
  await stop(ceiling.child);

  // Idle: long enough for the WAL checkpoint worker, started by the start-up refresh, to exit.
  const idle = await startBeatnik(args.server!, DATA_DIR);
  await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_S * 1000));
  const idleRss = rssMb(idle.child.pid!);
  await stop(idle.child);

  // What the server's refresh runs in its child process, here in process on the main database.
  const db = openDatabase(DB_FILE);
  await rebuildRanks(db, () => true); // warm the page cache once, as the server's start-up refresh does
  const refreshStarted = performance.now();
  const refresh = { ...await rebuildRanks(db, () => true), ms: Math.round(performance.now() - refreshStarted) };
  await db.destroy();
  const bigRefresh = await refreshRow();

  const report = renderReport({
    rows, mixedRow: MIXED_ROW, mixedRates: MIXED_RATES, visits: visitCount,
    coldStartMs: server.startMs, startRssMb: startRss, idleRssMb: idleRss,
    idleWaitS: IDLE_WAIT_S, loadedRssMb: loadedRss,
    refreshMs: refresh.ms, refreshedPosts: refresh.posts, refresh: bigRefresh, refreshSize: REFRESH_SIZE.posts,
    duration: DURATION, warmup: WARMUP, connections: CONNECTIONS,
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    size: SIZE,
  });
  const full = postgres ? `${report}\n\n${renderSideBySide(rows, postgres.rows, postgres.copyMs)}` : report;
  if (args['print-only']) console.log(`\n${full}`);
  else writeBlock(BENCH_BLOCK, full);
  console.log(`\nCold start ${server.startMs} ms · RSS after start ${startRss} MB · idle RSS ${idleRss} MB · RSS after load ${loadedRss} MB · ranking refresh ${refresh.ms} ms over ${refresh.posts} posts`);
  if (!args['print-only']) console.log(`Wrote ${PERFORMANCE_DOC}`);
}

main().catch((err) => {
  console.error('bench: failed:', err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
