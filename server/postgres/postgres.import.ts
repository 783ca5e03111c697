// Filling a PostgreSQL database with a copy (admin migrate-to-postgres), in what only PostgreSQL
// can say or do: which tables the target already has and whether they hold rows, rows written by
// the thousand, indexes and references built once after the load, where each identity column
// continues, and fresh planner statistics.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/** The tables of the connection's current schema (normally `public`), with whether each has rows. */
export async function inspectPostgresTables(db: DB): Promise<Array<{ name: string; hasRows: boolean }>> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
    ORDER BY table_name`.execute(db);
  const tables = [];
  for (const { name } of rows) {
    const found = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM ${sql.table(name)}) AS any`.execute(db);
    tables.push({ name, hasRows: found.rows[0]?.any === true });
  }
  return tables;
}

export type BulkInsert = (rows: ReadonlyArray<Record<string, unknown>>) => Promise<void>;

/**
 * Writes rows to `table` many at a time: one array per column, unnest()ed by one INSERT. One
 * parameter per column whatever the number of rows, and PostgreSQL parses and plans a few
 * arrays instead of thousands of VALUES: half the time of a multi-row VALUES insert on the
 * ratings of a 100k-article site.
 */
export async function bulkInserter(db: DB, table: string): Promise<BulkInsert> {
  const { rows: columns } = await sql<{ name: string; type: string }>`
    SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
    WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped`.execute(db);
  const typeOf = new Map(columns.map((column) => [column.name, column.type]));
  return async (rows) => {
    if (rows.length === 0) return;
    const names = Object.keys(rows[0]!);
    const arrays = names.map((name) => {
      const type = typeOf.get(name);
      if (!type) throw new Error(`${table}.${name} does not exist in PostgreSQL`);
      return sql`${rows.map((row) => row[name])}::${sql.raw(type)}[]`;
    });
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))})
      SELECT * FROM unnest(${sql.join(arrays)})`.execute(db);
  };
}

/**
 * The next id `table`'s identity column hands out is `largest + 1`: the ids copied with their
 * rows went around the sequence, which still stands at its start.
 */
export async function continueIdsAfter(db: DB, table: string, largest: number): Promise<void> {
  // setval() refuses 0, below the sequence's minimum: `false` makes 1 the next value instead.
  await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), ${Math.max(largest, 1)}, ${largest > 0})`.execute(db);
}

/**
 * What autovacuum would do after a bulk load, done before the site serves: the planner's
 * statistics, and every new row marked visible to all (hint bits and the visibility map).
 * Otherwise the first reads write each page they touch and autovacuum works through the new
 * tables under the site's first load.
 * Outside a transaction: VACUUM cannot run in one.
 */
export async function vacuumAfterBulkLoad(db: DB): Promise<void> {
  await sql`VACUUM (ANALYZE)`.execute(db);
}

/**
 * Runs `load` with the foreign keys and the secondary indexes of the current schema set aside,
 * then builds them again: an index built once over all rows and a reference checked by one join
 * per constraint, instead of both for every row inserted (pg_restore's order). Within the
 * caller's transaction, so a failure puts everything back; a broken reference fails the ADD
 * CONSTRAINT, naming it.
 */
export async function withoutIndexesAndForeignKeys<T>(
  trx: DB, load: () => Promise<T>, rebuilding: (indexes: number, foreignKeys: number) => void,
): Promise<T> {
  const { rows: foreignKeys } = await sql<{ table: string; name: string; definition: string }>`
    SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
    ORDER BY t.relname, c.conname`.execute(trx);
  // Primary keys and other constraints' indexes stay: they are what catches a duplicate row.
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    SELECT x.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid
    WHERE x.relnamespace = current_schema()::regnamespace
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
    ORDER BY x.relname`.execute(trx);
  for (const fk of foreignKeys) await sql`ALTER TABLE ${sql.table(fk.table)} DROP CONSTRAINT ${sql.id(fk.name)}`.execute(trx);
  for (const index of indexes) await sql`DROP INDEX ${sql.id(index.name)}`.execute(trx);
  const result = await load();
  rebuilding(indexes.length, foreignKeys.length);
  // Sorting in memory rather than in temporary files while the indexes are built.
  await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
  for (const index of indexes) await sql.raw(index.definition).execute(trx);
  for (const fk of foreignKeys) {
    await sql`ALTER TABLE ${sql.table(fk.table)} ADD CONSTRAINT ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(trx);
  }
  return result;
}
