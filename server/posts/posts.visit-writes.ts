// Counted visits, written together on SQLite. A visit is a small write, yet each transaction of
// its own paid the whole commit (the write lock, a frame in the WAL for every page it touched):
// the larger part of a reader's counted visit. SQLite has one writer, so the visits that arrive
// while one is being written wait for it anyway; they now go in as one transaction, the next.
// Each visit is still its own statements, checked and counted as alone, and its reader is
// answered once the transaction that holds it has committed. PostgreSQL writes side by side, and
// a group there would lock many authors' rows in one transaction: there each visit is its own.
import { dialectOf } from '../db.ts';
import type { DB } from '../schema.ts';

/** Writes one visit inside `trx`; true when it counted. */
export type VisitWrite<V> = (trx: DB, visit: V) => Promise<boolean>;

/** Visits in one transaction at most: a moment's worth at full load. */
const MAX_GROUP = 200;

interface Waiting<V> {
  visit: V;
  resolve: (counted: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * `write` for each visit, in a transaction with the visits that wait beside it (SQLite) or on its
 * own (PostgreSQL). The promise rejects when the visit could not be written.
 */
export function visitWriter<V>(db: DB, write: VisitWrite<V>): (visit: V) => Promise<boolean> {
  if (dialectOf(db) === 'postgres') return (visit) => db.transaction().execute((trx) => write(trx, visit));
  let waiting: Waiting<V>[] = [];
  let writing = false;

  const writeGroup = async (group: Waiting<V>[]): Promise<void> => {
    try {
      const counted = await db.transaction().execute(async (trx) => {
        const outcomes: boolean[] = [];
        for (const { visit } of group) outcomes.push(await write(trx, visit));
        return outcomes;
      });
      group.forEach((one, i) => one.resolve(counted[i]!));
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // One visit may be what failed (its article deleted meanwhile): the others need not fail with it.
      for (const one of group) await writeGroup([one]);
    }
  };

  const writeWaiting = async (): Promise<void> => {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting.slice(0, MAX_GROUP);
      waiting = waiting.slice(group.length);
      await writeGroup(group);
    }
    writing = false;
  };

  return (visit) => new Promise<boolean>((resolve, reject) => {
    waiting.push({ visit, resolve, reject });
    // After this turn's other requests have been read, so that theirs join the same group.
    if (!writing && waiting.length === 1) setImmediate(() => void writeWaiting());
  });
}
