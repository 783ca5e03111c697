// A prepared query compiles once and runs with each call's parameters, beside the constants
// its builder wrote, on the database or inside a transaction.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db.ts';
import { preparedQuery } from '../../server/prepared-query.ts';

const byName = preparedQuery((db, p: { name: string; level: 'user' | 'admin' }) =>
  db.selectFrom('users').select(['id', 'username']).where('username', '=', p.name).where('level', '=', p.level)
    .where('bio', '!=', 'constant kept'));

const addFollowers = preparedQuery((db, p: { id: number; by: number }) =>
  db.updateTable('users').set({ followers_count: sql`followers_count + ${p.by}` }).where('id', '=', p.id)
    .returning('followers_count'));

test('each call runs with its own parameters; constants in the builder stay', async () => {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  const at = new Date().toISOString();
  for (const [username, level, bio] of [['ana', 'user', ''], ['bo', 'admin', ''], ['cy', 'user', 'constant kept']] as const) {
    await db.insertInto('users').values({ username, username_key: username, email: `${username}@x.io`, password_hash: 'h', bio, level, created_at: at }).execute();
  }
  assert.equal((await byName.first(db, { name: 'ana', level: 'user' }))?.username, 'ana');
  assert.equal(await byName.first(db, { name: 'ana', level: 'admin' }), undefined);
  assert.equal((await byName.first(db, { name: 'bo', level: 'admin' }))?.username, 'bo');
  assert.equal(await byName.first(db, { name: 'cy', level: 'user' }), undefined, 'the constant condition is still applied');

  const ana = (await byName.first(db, { name: 'ana', level: 'user' }))!;
  await assert.rejects(db.transaction().execute(async (trx) => {
    assert.deepEqual(await addFollowers.all(trx, { id: ana.id, by: 5 }), [{ followers_count: 5 }]);
    throw new Error('roll back');
  }), /roll back/);
  assert.deepEqual(await addFollowers.all(db, { id: ana.id, by: 2 }), [{ followers_count: 2 }], 'the transaction rolled back');
  await db.destroy();
});
