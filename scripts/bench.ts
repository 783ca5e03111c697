// npm run bench -- [--duration S] [--warmup S] [--connections N] [--data-dir DIR] [--reseed]
//                  [--refresh-data-dir DIR] [--refreshes N] [--only refresh|postgres|federation] [--sqlite-only]
//                  [--server FILE --print-only]: measure another build (e.g. an older checkout's
//                  dist/server/main.js) and print its table without writing the doc
// Seeds (or reuses) a large database, starts the real server, measures each hot endpoint with
// autocannon against a bare-Express ceiling measured around every row, with the server's CPU
// time per request beside req/s, publishing again with federation on (`--only federation`: that
// row and the one without, printed), then the server's ranking refreshes on a database of a million
// articles while requests are timed (`--only refresh`: just that, printed), the same rows on
// PostgreSQL over a copy of the database when postgresql-15 is installed (not with --sqlite-only;
// `--only postgres`: just those, printed), and writes
// docs/performance.md. Loopback only.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { rebuildRanks } from '../server/sqlite/sqlite.ranks-rebuild.ts';
import { activePostIds, busiestAuthor, countedVisits, ensureData, jwtSecret, tokens, withDatabase } from './bench/data.ts';
import { rowRunner, type Bench, type Row, type Server } from './bench/measure.ts';
import { cpuMs, rssMb, startBeatnik, startCeiling, stop, type Started } from './bench/processes.ts';
import { postgresCopyOf } from './bench/postgres.ts';
import { measureRefreshes } from './bench/refresh.ts';
import { MIXED_RATES, MIXED_ROW, measureRows, publishRow, type BenchSite } from './bench/rows.ts';
import {
  clearFederationJobs, FEDERATED_PUBLISH_ROW, federationEnv, followWritersFromSink, INBOXES_PER_PUBLICATION, publishAndSettle, startDeliverySink, type Settled,
} from './bench/federation.ts';
import { postgresAvailable } from './postgres-cluster.ts';
import { openPostgres } from '../server/postgres/postgres.database.ts';
import { BENCH_BLOCK, renderFederation, renderRefresh, renderReport, renderSideBySide, type FederationRun } from './bench/report.ts';
import { PERFORMANCE_DOC, writeBlock } from './performance-doc.ts';
import { openDatabase } from '../server/db.ts';

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
if (args.only !== undefined && !['refresh', 'postgres', 'federation'].includes(args.only)) throw new Error('--only takes "refresh", "postgres" or "federation"');
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const DATA_DIR = path.resolve(args['data-dir']!);
const DB_FILE = path.join(DATA_DIR, 'beatnik.db');
const IDLE_WAIT_S = 65;
/** Publications made one at a time after the publishing rows, each followed until its deliveries are done. */
const SETTLED_PUBLICATIONS = 100;
const SETTLE_TIMEOUT_S = 300;
const SIZE = { users: 10_000, posts: 100_000, ratings: 1_000_000, comments: 300_000, follows: 50_000 };
const REFRESH_DATA_DIR = path.resolve(args['refresh-data-dir']!);
/** The refresh row's database: ten times the articles, pictures left out (a refresh never reads them). */
const REFRESH_SIZE = { users: 10_000, posts: 1_000_000, ratings: 1_000_000, comments: 300_000, follows: 50_000, images: 0 };

/** Each row's timing, against the server given and the ceiling. */
function benchOf(server: Server, ceiling: Started): Bench {
  return { server, ceiling: { url: ceiling.url, pid: ceiling.child.pid! }, seconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS };
}

/** The server's own refreshes on the million-article database, with requests timed meanwhile. */
async function refreshRow() {
  const [ids, pool] = [await activePostIds(REFRESH_DATA_DIR), await tokens(REFRESH_DATA_DIR, 200)];
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  return measureRefreshes(args.server!, REFRESH_DATA_DIR, Number(args.refreshes), {
    rate: (url) => fetch(`${url}/api/posts/${pick(ids)}/rate`, {
      method: 'POST', body: JSON.stringify({ rating: 1 + Math.floor(Math.random() * 5) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pick(pool)}` },
    }),
  });
}

/** A session's user id (its `sub`). */
const userIdOf = (token: string) => Number((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub);

/**
 * Publishing without federation and with it (FEDERATION=on, each writer followed from elsewhere),
 * one server after the other: the row at full load, then 100 publications one at a time until the
 * server has nothing left to deliver, what a publication costs in all (scripts/bench/federation.ts).
 */
async function publishingWithFederation(ceiling: Started, pool: string[]): Promise<{ without: Row; run: FederationRun }> {
  const plain = await startBeatnik(args.server!, DATA_DIR, { TRUSTED_PROXY: 'loopback' });
  let settledWithout: Settled | undefined;
  try {
    const pid = plain.child.pid!;
    const without = await publishRow(rowRunner(benchOf({ url: plain.url, pid }, ceiling)), plain.url, pool, CONNECTIONS, {
      beforeCleanup: async () => { settledWithout = await publishAndSettle(plain.url, pid, DATA_DIR, pool, SETTLED_PUBLICATIONS, SETTLE_TIMEOUT_S); },
    });
    await stop(plain.child);
    return { without, run: await federatedPublishRow(ceiling, pool, settledWithout!) };
  } finally {
    await stop(plain.child);
  }
}

async function federatedPublishRow(ceiling: Started, pool: string[], settledWithout: Settled): Promise<FederationRun> {
  const sink = await startDeliverySink();
  try {
    await followWritersFromSink(DATA_DIR, pool.map(userIdOf), sink);
    await clearFederationJobs(DATA_DIR);
    const server = await startBeatnik(args.server!, DATA_DIR, { TRUSTED_PROXY: 'loopback', ...federationEnv() });
    const pid = server.child.pid!;
    let deliveredDuringRow = 0;
    let backlog = 0;
    let settled: Settled | undefined;
    let row: Row;
    try {
      row = await publishRow(rowRunner(benchOf({ url: server.url, pid }, ceiling)), server.url, pool, CONNECTIONS, {
        name: FEDERATED_PUBLISH_ROW,
        // Before the articles are deleted again: the backlog the load left is dropped, and
        // publications one at a time are followed until delivered.
        beforeCleanup: async () => {
          deliveredDuringRow = sink.receivedOf('Create');
          backlog = await clearFederationJobs(DATA_DIR);
          settled = await publishAndSettle(server.url, pid, DATA_DIR, pool, SETTLED_PUBLICATIONS, SETTLE_TIMEOUT_S);
        },
      });
    } finally {
      await stop(server.child);
    }
    await clearFederationJobs(DATA_DIR);
    const run: FederationRun = {
      row, published: row.warmupSent + row.sent, deliveredDuringRow, backlog, settled: settled!, settledWithout,
      writers: pool.length, followersPerWriter: 3, inboxesPerPublication: INBOXES_PER_PUBLICATION,
    };
    console.log(`  ${deliveredDuringRow} Creates delivered during the row (about ${run.published} publications; ${backlog} federation jobs left queued);`
      + ` one at a time, ${settled!.cpuMsPerPublication} ms of CPU a publication with its deliveries, ${settledWithout.cpuMsPerPublication} ms without federation`);
    return run;
  } finally {
    await sink.close();
  }
}

/** The rows on a server using PostgreSQL, with a copy of the bench database in a cluster of its own. */
async function measurePostgres(ceiling: Started, site: Omit<BenchSite, 'countVisits'>) {
  console.log('Copying the bench database into PostgreSQL …');
  const pg = await postgresCopyOf(DB_FILE);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'beatnik-bench-pg-'));
  const db = openPostgres(pg.url);
  try {
    // The SQLite data directory's secret: the sessions signed for its users work here too.
    const server = await startBeatnik(args.server!, dataDir, { TRUSTED_PROXY: 'loopback', DATABASE_URL: pg.url, JWT_SECRET: jwtSecret(DATA_DIR) });
    try {
      const measured = await measureRows(benchOf({ url: server.url, pid: server.child.pid!, helpers: pg.processes }, ceiling),
        { ...site, countVisits: () => countedVisits(db) });
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

async function main(): Promise<void> {
  if (args.only !== 'refresh') await ensureData(DATA_DIR, SIZE, args.reseed!);
  if (args.only !== 'postgres' && args.only !== 'federation') await ensureData(REFRESH_DATA_DIR, REFRESH_SIZE, args.reseed!);
  if (args.server === 'dist/server/main.js') {
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (args.only === 'refresh') {
    console.log(`\n${renderRefresh(await refreshRow(), REFRESH_SIZE.posts)}`);
    return;
  }
  const site = { ids: await activePostIds(DATA_DIR), pool: await tokens(DATA_DIR, 200), author: await busiestAuthor(DATA_DIR) };
  const ceiling = await startCeiling();
  if (args.only === 'federation') {
    const { without, run } = await publishingWithFederation(ceiling, site.pool);
    await stop(ceiling.child);
    console.log(`\n${renderFederation(without, run)}`);
    return;
  }
  if (args.only === 'postgres') {
    await measurePostgres(ceiling, site); // prints its rows as it goes
    await stop(ceiling.child);
    return;
  }
  const server = await startBeatnik(args.server!, DATA_DIR, { TRUSTED_PROXY: 'loopback' });
  const startRss = rssMb(server.child.pid!);
  const { rows, visitCount } = await measureRows(benchOf({ url: server.url, pid: server.child.pid! }, ceiling),
    { ...site, countVisits: () => withDatabase(DATA_DIR, countedVisits) });
  const loadedRss = rssMb(server.child.pid!);
  await stop(server.child);
  const federated = await publishingWithFederation(ceiling, site.pool);
  rows.push(federated.run.row);
  // The same rows on PostgreSQL, over a copy of the database just measured.
  const postgres = args['sqlite-only'] || !postgresAvailable() ? undefined : await measurePostgres(ceiling, site);
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
  const withFederation = `${report}\n\n${renderFederation(federated.without, federated.run)}`;
  const full = postgres ? `${withFederation}\n\n${renderSideBySide(rows, postgres.rows, postgres.copyMs)}` : withFederation;
  if (args['print-only']) console.log(`\n${full}`);
  else writeBlock(BENCH_BLOCK, full);
  console.log(`\nCold start ${server.startMs} ms · RSS after start ${startRss} MB · idle RSS ${idleRss} MB · RSS after load ${loadedRss} MB · ranking refresh ${refresh.ms} ms over ${refresh.posts} posts`);
  if (!args['print-only']) console.log(`Wrote ${PERFORMANCE_DOC}`);
}

main().catch((err) => {
  console.error('bench: failed:', err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
