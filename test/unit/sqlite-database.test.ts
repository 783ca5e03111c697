// The SQLite dialect: one connection shared by every request, so a query issued while another
// request's transaction is open must wait for it, never land inside it; and a statement waiting
// for another connection's write lock says so, for the ranking refresh's process to step aside.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db.ts';
import { onLockWaits } from '../../server/sqlite/sqlite.database.ts';
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

test('a statement waiting for the write lock tells the listener before it waits, and again after', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-lock-'));
  const db = openDatabase(path.join(dir, 'test.db'));
  const holder = openDatabase(path.join(dir, 'test.db'));
  const told: Array<{ waiting: number; at: number }> = [];
  const stopListening = onLockWaits(db, (waiting) => told.push({ waiting, at: performance.now() }));
  try {
    await sql`CREATE TABLE t (x INTEGER)`.execute(db);
    await sql`PRAGMA busy_timeout = 300`.execute(db);
    told.length = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let held!: () => void;
    const holding = new Promise<void>((resolve) => { held = resolve; });
    const lock = holder.transaction().execute(async () => { held(); await released; });
    await holding;

    assert.deepEqual(await values(db), [], 'a read does not wait for the lock');
    assert.equal(told.length, 0, 'nor is it counted');
    await assert.rejects(sql`INSERT INTO t VALUES (1)`.execute(db), /database is locked/);
    await assert.rejects(db.transaction().execute((trx) => sql`INSERT INTO t VALUES (2)`.execute(trx)), /database is locked/);
    assert.deepEqual(told.map((t) => t.waiting), [1, 0, 1, 0], 'each waited, counted while it did');
    for (const first of [0, 2]) {
      const apart = told[first + 1]!.at - told[first]!.at;
      assert.ok(apart >= 250, `told as the wait began, not after it: ${Math.round(apart)} ms apart`);
    }
    release();
    await lock;
    stopListening();
    await sql`INSERT INTO t VALUES (3)`.execute(db);
    assert.equal(told.length, 4, 'no longer told once it stopped listening');
    assert.deepEqual(await values(db), [3]);
  } finally {
    stopListening();
    await holder.destroy();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a transaction SQLite already rolled back (a full disk) fails with its own error, not the ROLLBACK\'s', async () => {
  const db = await scratchDatabase();
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  const failing = db.transaction().execute(async (trx) => {
    await sql`INSERT INTO t VALUES (1)`.execute(trx);
    // What SQLite does on SQLITE_FULL, SQLITE_IOERR or SQLITE_NOMEM at a commit or a spill:
    // it ends the transaction itself, then the statement fails.
    await sql`ROLLBACK`.execute(trx);
    throw full;
  });
  await assert.rejects(failing, (err) => err === full);
  assert.deepEqual(await values(db), []);
  await sql`INSERT INTO t VALUES (2)`.execute(db);
  assert.deepEqual(await values(db), [2]);
  await db.destroy();
});
