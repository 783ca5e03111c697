// A child process's entry (forked by sqlite.ranks-refresh.ts, the database file as its argument):
// one ranking refresh on its own connection, in short write transactions, stepping aside for the
// server's writes between them, then the visit log pruned the same way; its outcome goes back
// over the IPC channel, and the process ends.
import { setImmediate as afterInput, setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import { pruneVisitLog, type RefreshSummary } from '../ranks/ranks.service.ts';
import { openSqlite } from './sqlite.database.ts';
import { rebuildRanks } from './sqlite.ranks-rebuild.ts';

/** What the server tells the child: how many of its statements wait for the write lock now
 * (each time that changes), or to stop after the current batch (at shutdown). */
export type ToRanksWorker = { waiting: number } | { stop: true };

/** What the child tells the server: that it listens (a message sent before would be lost; the
 * server answers it at once, and the child waits for that answer before it starts), then
 * its refresh's outcome (the server times it, start included) or its error. */
export type FromRanksWorker = { listening: true } | { result: Omit<RefreshSummary, 'ms'> } | { error: { message: string; stack?: string } };

/** A pause after every batch, for writers the server does not count (the admin CLI): they must
 * find the lock free when they look for it again. */
const PAUSE_MS = 1;
/** The longest the child waits for the server's writers before looking again: a message lost
 * would otherwise stop the refresh for good. */
const WAIT_MS = 100;

let waiting = 0;
let stopped = false;
let wake: (() => void) | undefined;

/** The server's first word, its answer to 'listening': the refresh starts only then, so that a
 * stop told while this process was starting is always seen, however busy the machine. */
let heard: (() => void) | undefined;
const answered = new Promise<void>((resolve) => { heard = resolve; });

const stop = () => {
  stopped = true;
  wake?.();
  heard?.();
};
process.on('message', (message: ToRanksWorker) => {
  if ('stop' in message) return stop();
  waiting = message.waiting;
  wake?.();
  heard?.();
});
// The server is gone (it closed the channel, or died): stop after the current batch rather than
// run on as an orphan. It may have gone before this process could listen.
process.on('disconnect', stop);
// Ctrl-C, and systemd's stop (KillMode=control-group), signal the server's whole group: this one
// stops after its batch too, as when the server tells it, keeping the previous scores.
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
if (process.connected) process.send!({ listening: true } satisfies FromRanksWorker, (err: Error | null) => err && stop());
else stop();

async function between(): Promise<boolean> {
  await sleep(PAUSE_MS);
  // The timer alone may fire before the event loop reads the channel: an immediate runs only
  // after it has, so the server's last count is in.
  await afterInput();
  // Requests waiting for the lock go first; each is a short transaction.
  while (waiting > 0 && !stopped) {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, WAIT_MS);
    });
    clearTimeout(timer);
    wake = undefined;
  }
  return !stopped;
}

async function refresh(db: DB): Promise<Omit<RefreshSummary, 'ms'>> {
  // Checkpoints as this connection commits, in this process, keep the WAL short; otherwise the
  // server's own commits would meet the long WAL and copy it back on the event loop
  // (sqlite.database.ts sets their threshold).
  await sql`PRAGMA wal_autocheckpoint = 1000`.execute(db);
  // Each score row is written from its post's row, in the same statement, and a post deleted
  // later takes the row with it (the server's connection enforces the cascade): looking the post
  // up again for the foreign key would only lengthen the transactions.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  const ranked = await rebuildRanks(db, between);
  const pruned = ranked.complete ? await pruneVisitLog(db, between) : { pruned: 0, complete: false };
  return { posts: ranked.posts, pruned_visits: pruned.pruned, complete: pruned.complete };
}

async function main(file: string): Promise<FromRanksWorker> {
  let db: DB | undefined;
  try {
    db = openSqlite(file);
    return { result: await refresh(db) };
  } catch (err) {
    const { message, stack } = err instanceof Error ? err : new Error(String(err));
    return { error: { message, stack } };
  } finally {
    await db?.destroy();
  }
}

await answered;
const answer = await main(process.argv[2] ?? '');
// Ends once the answer is written: the open channel would otherwise keep the process alive.
if (process.connected) process.send!(answer, () => process.exit(0));
else process.exit(0);
