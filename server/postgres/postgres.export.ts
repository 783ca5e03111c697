// Reading a whole PostgreSQL database out for a backup archive (server/backups/), in what only
// PostgreSQL can say: one read-only snapshot for every table, rows fetched by a cursor a few
// thousand at a time, and where each identity column stands.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/** Runs `read` in one REPEATABLE READ, read-only transaction: every table as of the same moment. */
export async function inSnapshot<T>(db: DB, read: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
    await sql`SET TRANSACTION READ ONLY`.execute(trx);
    return read(trx);
  });
}

/** `table`'s rows, `size` at a time, through a cursor of the snapshot's transaction `trx`. */
export async function* rowBatches(trx: DB, table: string, size = 5_000): AsyncGenerator<Array<Record<string, unknown>>> {
  await sql`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT * FROM ${sql.table(table)}`.execute(trx);
  try {
    for (;;) {
      const { rows } = await sql<Record<string, unknown>>`FETCH FORWARD ${sql.raw(String(size))} FROM backup_rows`.execute(trx);
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await sql`CLOSE backup_rows`.execute(trx);
  }
}

/** The last id each table's identity column gave out (absent when it gave none yet). */
export async function postgresIdCounters(db: DB, tables: readonly string[]): Promise<Map<string, number>> {
  const given = new Map<string, number>();
  for (const table of tables) {
    const { rows } = await sql<{ last: number | null }>`
      SELECT pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')) AS last`.execute(db);
    const last = rows[0]?.last;
    if (last !== null && last !== undefined) given.set(table, Number(last));
  }
  return given;
}
