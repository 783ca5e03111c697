import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db.ts';
import { withConnection } from '../../server/connection.ts';

function scratchDatabase() {
  const database = openDatabase(':memory:');
  database.sqlite.exec('CREATE TABLE t (x INTEGER)');
  return database;
}

const rows = (database: ReturnType<typeof scratchDatabase>) =>
  database.sqlite.prepare('SELECT x FROM t ORDER BY x').pluck().all();

test('plain SQL waits for an open Kysely transaction instead of landing inside it', async () => {
  const database = scratchDatabase();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const failing = database.db.transaction().execute(async (trx) => {
    await sql`INSERT INTO t VALUES (1)`.execute(trx);
    await gate;
    throw new Error('rolled back');
  });
  while (!database.sqlite.inTransaction) await new Promise((resolve) => setImmediate(resolve));
  const written = withConnection(database, (conn) => conn.run('INSERT INTO t VALUES (2)').changes);
  release();
  await assert.rejects(failing, /rolled back/);
  assert.equal(await written, 1);
  assert.deepEqual(rows(database), [2]);
  await database.db.destroy();
});

test('with no transaction open the work runs at once; a throw rejects and atomically rolls back', async () => {
  const database = scratchDatabase();
  let ran = false;
  const pending = withConnection(database, () => { ran = true; });
  assert.equal(ran, true, 'ran before the first await');
  await pending;
  await assert.rejects(withConnection(database, (conn) => conn.atomically(() => {
    conn.run('INSERT INTO t VALUES (3)');
    throw new Error('half done');
  })), /half done/);
  assert.deepEqual(rows(database), []);
  await database.db.destroy();
});
