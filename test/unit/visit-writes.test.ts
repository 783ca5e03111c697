// Counted visits written together on SQLite (server/posts/posts.visit-writes.ts): the visits
// asked for in one turn share a transaction, each answered with its own outcome; one that fails
// fails alone; those asked for while a group is being written go into the next one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db.ts';
import type { DB } from '../../server/schema.ts';
import { visitWriter } from '../../server/posts/posts.visit-writes.ts';

let dir: string;
let db: DB;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'beatnik-visit-writes-'));
  db = openDatabase(path.join(dir, 'visits.db'));
  await sql`CREATE TABLE written (id INTEGER PRIMARY KEY)`.execute(db);
});

after(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const writtenIds = async () => (await sql<{ id: number }>`SELECT id FROM written ORDER BY id`.execute(db)).rows.map((r) => r.id);

test('visits asked for in one turn are written in one transaction, each answered with its own outcome', async () => {
  await sql`DELETE FROM written`.execute(db);
  const transactions = new Set<DB>();
  const write = visitWriter(db, async (trx, id: number) => {
    transactions.add(trx);
    await sql`INSERT INTO written (id) VALUES (${id})`.execute(trx);
    return id % 2 === 0;
  });
  const outcomes = await Promise.all([1, 2, 3, 4].map((id) => write(id)));
  assert.deepEqual(outcomes, [false, true, false, true]);
  assert.equal(transactions.size, 1);
  assert.deepEqual(await writtenIds(), [1, 2, 3, 4]);
});

test('a visit that cannot be written fails alone: the others in its group are written', async () => {
  await sql`DELETE FROM written`.execute(db);
  const write = visitWriter(db, async (trx, id: number) => {
    await sql`INSERT INTO written (id) VALUES (${id})`.execute(trx);
    if (id === 3) throw new Error('article gone');
    return true;
  });
  const outcomes = await Promise.allSettled([1, 2, 3, 4].map((id) => write(id)));
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.equal((outcomes[2] as PromiseRejectedResult).reason.message, 'article gone');
  assert.deepEqual(await writtenIds(), [1, 2, 4], 'the failed visit left nothing behind');
});

test('visits asked for while a group is being written go into the next group', async () => {
  await sql`DELETE FROM written`.execute(db);
  const groupOf = new Map<number, DB>();
  let later: Promise<boolean>[] = [];
  const write = visitWriter(db, async (trx, id: number) => {
    groupOf.set(id, trx);
    if (id === 1) later = [5, 6].map((next) => write(next));
    await sql`INSERT INTO written (id) VALUES (${id})`.execute(trx);
    return true;
  });
  await Promise.all([1, 2].map((id) => write(id)));
  await Promise.all(later);
  assert.equal(groupOf.get(1), groupOf.get(2));
  assert.equal(groupOf.get(5), groupOf.get(6));
  assert.notEqual(groupOf.get(1), groupOf.get(5));
  assert.deepEqual(await writtenIds(), [1, 2, 5, 6]);
});
