// The SQLite dialect: one connection shared by every request, so a query issued while another
// request's transaction is open must wait for it, never land inside it; and a statement waiting
// for another connection's write lock says so, for the ranking refresh's worker to step aside.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db.ts';
import { lockWaitersOf } from '../../server/sqlite/sqlite.database.ts';
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

test('a statement waiting for the write lock is counted where another thread can see it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-lock-'));
  const db = openDatabase(path.join(dir, 'test.db'));
  const holder = openDatabase(path.join(dir, 'test.db'));
  // Samples the count every millisecond, from a thread of its own: this one is held while it waits.
  const watcher = new Worker(`const { parentPort, workerData } = require('node:worker_threads');
    let most = 0;
    const tick = setInterval(() => { most = Math.max(most, Atomics.load(workerData, 0)); }, 1);
    parentPort.once('message', () => { clearInterval(tick); parentPort.postMessage(most); });`,
  { eval: true, workerData: lockWaitersOf(db) });
  const mostSeen = () => new Promise<number>((resolve) => { watcher.once('message', resolve); watcher.postMessage('stop'); });
  try {
    await sql`CREATE TABLE t (x INTEGER)`.execute(db);
    await sql`PRAGMA busy_timeout = 300`.execute(db);
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let held!: () => void;
    const holding = new Promise<void>((resolve) => { held = resolve; });
    const lock = holder.transaction().execute(async () => { held(); await released; });
    await holding;

    assert.deepEqual(await values(db), [], 'a read does not wait for the lock');
    await assert.rejects(sql`INSERT INTO t VALUES (1)`.execute(db), /database is locked/);
    await assert.rejects(db.transaction().execute((trx) => sql`INSERT INTO t VALUES (2)`.execute(trx)), /database is locked/);
    assert.equal(await mostSeen(), 1, 'each waited, counted while it did');
    assert.equal(Atomics.load(lockWaitersOf(db)!, 0), 0, 'and uncounted after');
    release();
    await lock;
    await sql`INSERT INTO t VALUES (3)`.execute(db);
    assert.deepEqual(await values(db), [3]);
  } finally {
    await watcher.terminate();
    await holder.destroy();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
