// The ranking refresh on SQLite: in a worker thread with its own connection to the same file.
// better-sqlite3 runs a statement on the thread that calls it, so a refresh on the server's own
// connection would hold every request for its whole length (seconds at a million posts). WAL lets
// the server read meanwhile; its writes wait at most for one of the worker's short batches, and
// the worker steps aside before the next one while any of them waits (sqlite.ranks-worker.ts).
import { Worker } from 'node:worker_threads';
import type { DB } from '../db.ts';
import type { RankRefresh } from '../ranks/ranks.scheduler.ts';
import type { RefreshSummary } from '../ranks/ranks.service.ts';
import { pruneVisitLog } from '../ranks/ranks.service.ts';
import { lockWaitersOf } from './sqlite.database.ts';
import { rebuildRanks } from './sqlite.ranks-rebuild.ts';
import type { RanksWorkerData } from './sqlite.ranks-worker.ts';

// The worker's module: beside this one when running from the sources (under tsx), beside the
// bundle in production (scripts/build.ts writes dist/server/sqlite.ranks-worker.js).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const ENTRY = new URL(`./sqlite.ranks-worker.${FROM_SOURCES ? 'ts' : 'js'}`, import.meta.url).href;
// Node 20 does not apply the parent's --import loaders to a worker's own modules, so from the
// sources the worker registers tsx before it imports a TypeScript file. A module that cannot load
// is reported like any failure of the refresh.
const BOOT = `${FROM_SOURCES
  ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY)}); })`
  : `import(${JSON.stringify(ENTRY)})`}.catch((err) => require('node:worker_threads').parentPort.postMessage(
    { error: { message: String(err && err.message || err), stack: err && err.stack } }))`;

/** What the worker answers: its refresh's outcome, timed here (its start included), or its error. */
export type WorkerAnswer = { result: Omit<RefreshSummary, 'ms'> } | { error: { message: string; stack?: string } };

/**
 * Whether a worker thread may use better-sqlite3. On Node 24, better-sqlite3 12 aborts the whole
 * process as such a thread ends (node::RemoveEnvironmentCleanupHook, WiseLibs/better-sqlite3#1515;
 * the container check found it: the image runs Node 24). 12 is the last line that runs on Node 20.
 */
export const WORKER_THREADS_SAFE = Number(process.versions.node.split('.')[0]) < 24;

/**
 * The server's refresh on SQLite: in a worker thread where that is safe; otherwise the same
 * short batches on the server's own connection, handing the event loop back between two batches,
 * so a request waits at most for one batch.
 */
export function refreshRanksOffRequestPath(file: string, db: DB): RankRefresh {
  return WORKER_THREADS_SAFE ? refreshRanksInWorker(file, db) : refreshRanksInBatches(db);
}

export function refreshRanksInBatches(db: DB): RankRefresh {
  return async (signal) => {
    const started = performance.now();
    const between = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return !signal.aborted;
    };
    const ranked = await rebuildRanks(db, between, Date.now(), { orderAsScored: true });
    const pruned = ranked.complete ? await pruneVisitLog(db, between) : { pruned: 0, complete: false };
    return { posts: ranked.posts, pruned_visits: pruned.pruned, complete: pruned.complete, ms: Math.round(performance.now() - started) };
  };
}

/** Refreshes `file`, the database `db` (the server's connection) has open. */
export function refreshRanksInWorker(file: string, db: DB): RankRefresh {
  const lockWaiters = lockWaitersOf(db) ?? new Int32Array(new SharedArrayBuffer(4));
  return (signal) => new Promise((resolve, reject) => {
    if (signal.aborted) {
      resolve({ posts: 0, pruned_visits: 0, ms: 0, complete: false });
      return;
    }
    const started = performance.now();
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const workerData: RanksWorkerData = { file, lockWaiters, stop };
    const thread = new Worker(BOOT, { eval: true, workerData });
    const onAbort = () => Atomics.store(stop, 0, 1);
    signal.addEventListener('abort', onAbort, { once: true });
    let answer: WorkerAnswer | undefined;
    thread.on('message', (message: WorkerAnswer) => { answer = message; });
    thread.on('error', (err) => { answer ??= { error: { message: err.message, stack: err.stack } }; });
    thread.once('exit', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (answer && 'result' in answer) return resolve({ ...answer.result, ms: Math.round(performance.now() - started) });
      const err = new Error(answer?.error.message ?? `the ranking worker exited with code ${code}`);
      if (answer?.error.stack) err.stack = answer.error.stack;
      reject(err);
    });
  });
}
