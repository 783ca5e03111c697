// A worker thread's entry (started by sqlite.ranks-refresh.ts): one ranking refresh on its own
// connection, in short write transactions, stepping aside for the server's writes between them,
// then the visit log pruned the same way.
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import type { DB } from '../db.ts';
import { pruneVisitLog, type RefreshSummary } from '../ranks/ranks.service.ts';
import { openSqlite } from './sqlite.database.ts';
import { rebuildRanks } from './sqlite.ranks-rebuild.ts';
import type { WorkerAnswer } from './sqlite.ranks-refresh.ts';

export interface RanksWorkerData {
  file: string;
  /** The server connection's count of statements waiting for the write lock (lockWaitersOf). */
  lockWaiters: Int32Array;
  /** Set to 1 by the server at shutdown: stop after the current batch. */
  stop: Int32Array;
}

/**
 * A pause after every batch, for writers the server does not count (the admin CLI): SQLite's busy
 * handler looks again every few milliseconds, later every 100, and must find the lock free.
 */
const PAUSE_MS = 1;
/** KB of pages each of this connection's databases caches: the sort of a million scores then
 * spills to a temporary file sooner (0.7 s instead of 0.5, off the write lock). */
const REFRESH_CACHE_KB = 256;

const { file, lockWaiters, stop } = workerData as RanksWorkerData;

async function between(): Promise<boolean> {
  await sleep(PAUSE_MS);
  // Requests waiting for the lock go first; each is a short transaction.
  for (let waiting; (waiting = Atomics.load(lockWaiters, 0)) > 0;) Atomics.wait(lockWaiters, 0, waiting, 100);
  return Atomics.load(stop, 0) === 0;
}

async function refresh(db: DB): Promise<Omit<RefreshSummary, 'ms'>> {
  // Checkpoints as this connection commits, in this thread, keep the WAL short; otherwise the
  // server's own commits would meet the long WAL and copy it back on the event loop
  // (sqlite.database.ts sets their threshold).
  await sql`PRAGMA wal_autocheckpoint = 1000`.execute(db);
  // Each score row is written from its post's row, in the same statement, and a post deleted
  // later takes the row with it (the server's connection enforces the cascade): looking the post
  // up again for the foreign key would only lengthen the transactions.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  // What this thread allocates stays in its memory arena after it ends (the C library keeps it
  // for reuse), so its page caches, which also bound the sort's memory, stay small: the server
  // idled at 83 MB after a refresh with the usual 2 MB, at 79 MB with this (100k posts).
  await sql.raw(`PRAGMA main.cache_size = -${REFRESH_CACHE_KB}`).execute(db);
  await sql.raw(`PRAGMA temp.cache_size = -${REFRESH_CACHE_KB}`).execute(db);
  const ranked = await rebuildRanks(db, between);
  const pruned = ranked.complete ? await pruneVisitLog(db, between) : { pruned: 0, complete: false };
  return { posts: ranked.posts, pruned_visits: pruned.pruned, complete: pruned.complete };
}

let db: DB | undefined;
try {
  db = openSqlite(file);
  parentPort!.postMessage({ result: await refresh(db) } satisfies WorkerAnswer);
} catch (err) {
  const { message, stack } = err instanceof Error ? err : new Error(String(err));
  parentPort!.postMessage({ error: { message, stack } } satisfies WorkerAnswer);
} finally {
  await db?.destroy();
}
