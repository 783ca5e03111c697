// What a copy of the SQLite database to another one needs to know that only SQLite can say: which
// tables it holds, and the largest id each table ever handed out (sqlite_sequence, which
// AUTOINCREMENT keeps: migrations/0002_ids_never_reused.ts), deleted rows included.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * Beatnik's tables in the file: without SQLite's own, Kysely's migration bookkeeping, and the
 * full-text index (a virtual table and its shadow tables, built from post_search, which is copied).
 */
export async function listSqliteTables(db: DB): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM pragma_table_list
    WHERE schema = 'main' AND type = 'table'
      AND name NOT LIKE 'sqlite\_%' ESCAPE '\\' AND name NOT LIKE 'kysely\_%' ESCAPE '\\'
    ORDER BY name`.execute(db);
  return rows.map((row) => row.name);
}

/** The largest id ever given out, by table name (tables that never inserted a row are absent). */
export async function sqliteIdCounters(db: DB): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence`.execute(db);
  return new Map(rows.map((row) => [row.name, Number(row.seq)]));
}
