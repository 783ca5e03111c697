// Writing generated rows in bulk through Kysely: multi-row inserts of a few hundred rows, one
// transaction per batch of a few thousand. Many rows a statement is what makes a bulk load fast
// on any database; the bound keeps each statement far below SQLite's 32,766 parameters (and
// PostgreSQL's 65,535).
import type { DB } from '../../server/schema.ts';

export type Progress = (label: string, done: number, total: number) => void;

/** Rows per transaction, and per step of the progress bar. */
const BATCH = 5_000;
/** Rows per INSERT: with at most 10 columns, at most 5,000 parameters a statement. */
const ROWS_PER_INSERT = 500;

/**
 * Makes the rows for i in [0, total) in order (so a seeded generator draws the same numbers),
 * and writes each batch of them with `write` in one transaction, reporting progress.
 */
export async function inBatches<T>(
  db: DB, label: string, total: number, progress: Progress,
  make: (i: number) => T, write: (trx: DB, rows: T[]) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < total; from += BATCH) {
    const to = Math.min(total, from + BATCH);
    const rows: T[] = [];
    for (let i = from; i < to; i += 1) rows.push(make(i));
    await db.transaction().execute((trx) => write(trx, rows));
    progress(label, to, total);
  }
}

/** Calls `insert` on consecutive slices of ROWS_PER_INSERT rows; returns what they return, in order. */
export async function inChunks<T, R>(rows: readonly T[], insert: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) results.push(...await insert(rows.slice(at, at + ROWS_PER_INSERT)));
  return results;
}

/**
 * The ids a multi-row INSERT … RETURNING id assigned, in the order of its rows. Both SQLite and
 * PostgreSQL number the rows in VALUES order, ascending, but neither promises the order RETURNING
 * lists them in, hence the sort.
 */
export function idsInRowOrder(created: ReadonlyArray<{ id: number }>): number[] {
  return created.map((row) => row.id).sort((a, b) => a - b);
}
