// Every foreign key has an index leading with its column (or is its table's key's first column):
// deleting the row it points at (an article, an account) then finds the rows to cascade or set to
// NULL by key. Without one the database reads the whole referencing table for every deletion, the
// single SQLite writer held all the while. Read from the migrated schema, on either database.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { dialectOf } from '../../server/db.ts';
import { startTestServer, type TestServer } from '../helpers.ts';

/** Left without an index on purpose, and why. */
const UNINDEXED = new Map([
  // migrations/0013_lighter_ledger.ts: a leaf written by every rating and comment, for the rare
  // removal of an account.
  ['mojo_events.actor_id', 'written by every rating and comment; serves only an account\'s removal'],
]);

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

async function unindexedForeignKeys(): Promise<string[]> {
  const db = server.ctx.db;
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await sql<{ key: string }>`
      WITH fks AS (
        SELECT m.name AS tbl, f."from" AS col FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'),
      firsts AS (
        SELECT m.name AS tbl, ii.name AS col
          FROM sqlite_master m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
          WHERE m.type = 'table' AND ii.seqno = 0
        UNION SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND p.pk = 1)
      SELECT fks.tbl || '.' || fks.col AS key FROM fks
        WHERE NOT EXISTS (SELECT 1 FROM firsts WHERE firsts.tbl = fks.tbl AND firsts.col = fks.col)
        ORDER BY key`.execute(db);
    return rows.map((row) => row.key);
  }
  const { rows } = await sql<{ key: string }>`
    SELECT c.conrelid::regclass::text || '.' || a.attname AS key
      FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
      ORDER BY key`.execute(db);
  return rows.map((row) => row.key);
}

test('every foreign key column leads an index, but the ones left out on purpose', async () => {
  const missing = await unindexedForeignKeys();
  assert.deepEqual(missing, [...UNINDEXED.keys()], `foreign keys without an index: ${missing.join(', ')}`);
});
