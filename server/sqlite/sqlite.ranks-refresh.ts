// The ranking refresh on SQLite: in a child process with its own connection to the same file.
// better-sqlite3 runs a statement on the thread that calls it, so a refresh on the server's own
// connection would hold every request for its whole length (seconds at a million posts), or for
// each of its batches if they took turns with requests. WAL lets the server read meanwhile; its
// writes wait at most for one of the child's short batches, and the child steps aside before the
// next one while any of them waits (sqlite.ranks-worker.ts).
//
// A process, not a worker thread: on Node 24 (the container's) better-sqlite3 12 aborts the
// process it runs in when the collector frees one of its objects (sqlite.kept-objects.ts), and a
// worker thread that used it aborted the server as it ended (WiseLibs/better-sqlite3#1515); 13,
// which fixes that, does not run on Node 20. Whatever becomes of the child, the server sees at
// worst a refresh that failed, and the child's memory goes back to the system as it ends.
import { fork } from 'node:child_process';
import type { DB } from '../schema.ts';
import type { RankRefresh } from '../ranks/ranks.scheduler.ts';
import type { RefreshSummary } from '../ranks/ranks.service.ts';
import { onLockWaits } from './sqlite.database.ts';
import type { FromRanksWorker, ToRanksWorker } from './sqlite.ranks-worker.ts';
import { ranksWorkerFile } from './sqlite.ranks-worker-entry.ts';

/** Refreshes `file`, the database `db` (the server's connection) has open. */
export function refreshRanksInChild(file: string, db: DB): RankRefresh {
  return async (signal) => {
    const started = performance.now();
    const entry = await ranksWorkerFile();
    return inChild(entry, file, db, signal, started);
  };
}

function inChild(entry: string, file: string, db: DB, signal: AbortSignal, started: number): Promise<RefreshSummary> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      resolve({ posts: 0, pruned_visits: 0, ms: 0, complete: false });
      return;
    }
    // Not the server's own options (an --inspect port would clash): the module needs none.
    const child = fork(entry, [file], { execArgv: [] });
    let listening = false;
    let waiting = 0;
    const tell = (message: ToRanksWorker) => {
      if (listening && child.connected) child.send(message);
    };
    // Told as it changes, so the child sees the count before its next batch.
    const stopWatching = onLockWaits(db, (count) => tell({ waiting: waiting = count }));
    const onAbort = () => tell({ stop: true });
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (settle: () => void) => {
      stopWatching();
      signal.removeEventListener('abort', onAbort);
      settle();
    };

    let answer: Exclude<FromRanksWorker, { listening: true }> | undefined;
    child.on('message', (message: FromRanksWorker) => {
      if (!('listening' in message)) {
        answer = message;
        return;
      }
      // What happened while the child was starting: it waits for this answer before it starts,
      // so a stop goes first.
      listening = true;
      if (signal.aborted) tell({ stop: true });
      tell({ waiting });
    });
    // A process that never started will not close either. A message that could not be written
    // (the child had just ended) changes nothing: how it ended tells.
    child.on('error', (err) => {
      if (child.pid === undefined) finish(() => reject(err));
    });
    // 'close' comes once the channel has delivered every message the child sent.
    child.once('close', (code, exitSignal) => finish(() => {
      if (answer && 'result' in answer) return resolve({ ...answer.result, ms: Math.round(performance.now() - started) });
      // Signalled with the server's group before it could listen for it: stopped, not failed.
      if (!answer && (exitSignal === 'SIGTERM' || exitSignal === 'SIGINT')) {
        return resolve({ posts: 0, pruned_visits: 0, ms: Math.round(performance.now() - started), complete: false });
      }
      const how = exitSignal ? `was killed by ${exitSignal}` : `exited with code ${code}`;
      const err = new Error(answer?.error.message ?? `the ranking refresh process ${how}`);
      if (answer?.error.stack) err.stack = answer.error.stack;
      reject(err);
    }));
  });
}
