// The SQLite dialect: one connection shared by every request, so a query issued while another
// request's transaction is open must wait for it, never land inside it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db.ts';
import { sqlRows } from '../helpers.ts';

async function scratchDatabase() {
  const db = openDatabase(':memory:');
  await sql`CREATE TABLE t (x INTEGER)`.execute(db);
  return db;
}

const values = async (db: Awaited<ReturnType<typeof scratchDatabase>>) =>
  (await sqlRows<{ x: number }>(db, 'SELECT x FROM t ORDER BY x')).map((row) => row.x);

test('a query outside a transaction waits for it and survives its rollback', async () => {
  const db = await scratchDatabase();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  let inside!: () => void;
  const opened = new Promise<void>((resolve) => { inside = resolve; });
  const failing = db.transaction().execute(async (trx) => {
    await sql`INSERT INTO t VALUES (1)`.execute(trx);
    inside();
    await gate;
    throw new Error('rolled back');
  });
  await opened;
  const written = sql`INSERT INTO t VALUES (2)`.execute(db);
  release();
  await assert.rejects(failing, /rolled back/);
  await written;
  assert.deepEqual(await values(db), [2]);
  await db.destroy();
});

test('statements are reused by SQL text with fresh parameters each time', async () => {
  const db = await scratchDatabase();
  for (const x of [5, 3, 9]) await db.insertInto('t' as never).values({ x } as never).execute();
  const found = [];
  for (const x of [3, 9, 4]) found.push((await sqlRows<{ x: number }>(db, 'SELECT x FROM t WHERE x = ?', x)).length);
  assert.deepEqual(found, [1, 1, 0]);
  assert.deepEqual(await values(db), [3, 5, 9]);
  await db.destroy();
});

test('rank_score is a SQL function the ranking refresh can call', async () => {
  const db = await scratchDatabase();
  const now = Date.parse('2026-11-23T12:00:00Z');
  const [fresh, old] = await sqlRows<{ score: number }>(db,
    `SELECT rank_score(10, 2, 9, 1, ?, ?) AS score UNION ALL SELECT rank_score(10, 2, 9, 1, ?, ?)`,
    '2026-11-23T11:00:00Z', now, '2026-10-01T11:00:00Z', now);
  assert.ok(fresh!.score > old!.score, `a newer post outranks an older one with the same counts: ${fresh!.score} vs ${old!.score}`);
  await db.destroy();
});
