// On PostgreSQL each pooled connection prepares a statement once and then only runs it
// (server/postgres/postgres.database.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { DB } from '../../server/schema.ts';
import { openPostgres } from '../../server/postgres/postgres.database.ts';
import { createTestDatabase, dropTestDatabase, onPostgres, testPostgresBase } from '../postgres-databases.ts';

const skip = onPostgres ? false : 'prepared statements are PostgreSQL\'s: run under npm run test:pg';
let url = '';
let db: DB;

before(async () => {
  if (!onPostgres) return;
  url = await createTestDatabase(testPostgresBase()!);
  db = openPostgres(url, { poolSize: 1 }); // one connection: every statement below runs on it
});

after(async () => {
  if (!onPostgres) return;
  await db.destroy();
  await dropTestDatabase(url);
});

const doubled = (n: number) => sql<{ v: number }>`SELECT ${n}::int * 2 AS v`;

test('a statement is prepared once on its connection and runs again with new values', { skip }, async () => {
  for (const n of [1, 2, 3]) assert.deepEqual((await doubled(n).execute(db)).rows, [{ v: n * 2 }]);
  const prepared = await sql<{ name: string }>`
    SELECT name FROM pg_prepared_statements WHERE statement = ${doubled(0).compile(db).sql}`.execute(db);
  assert.equal(prepared.rows.length, 1, 'prepared on the connection, once');
  assert.match(prepared.rows[0]!.name, /^beatnik_\d+$/);
});

test('a statement that fails leaves the connection usable', { skip }, async () => {
  for (let i = 0; i < 2; i++) {
    await assert.rejects(sql`SELECT no_such_column FROM users`.execute(db), /no_such_column/);
  }
  const rows = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
  assert.deepEqual(rows.rows, [{ one: 1 }]);
});
