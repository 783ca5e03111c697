// Migrations 0012 and 0013 on either database: an old site's ledger starts with one `recompute` event per
// user whose mojo is not 0, equal to it, so every ledger adds up from the first day; 0013 lightens its writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Migrator } from 'kysely';
import { migrationProvider } from '../../migrations/index.ts';
import { dialectOf, migrateToLatest } from '../../server/db.ts';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { sqlRows } from '../helpers.ts';
import { freshMigratedDatabase, type MigratedDatabase } from '../migration-databases.ts';

test('0012 gives every user with mojo one recompute event equal to it, and goes down and up again', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const provider = migrationProvider(dialectOf(db));
    const migrator = new Migrator({ db, provider });
    const names = Object.keys(await provider.getMigrations());
    const before = names[names.indexOf('0012_mojo_ledger') - 1]!;
    assert.equal((await migrator.migrateTo(before)).error, undefined);
    const now = new Date().toISOString();
    // Mojo as an old site stores it: the formula over the counters (followers alone: 3·ln(1 + F)).
    const people: Array<[string, number, number]> = [['ana', 3, 4.16], ['bob', 0, 0], ['cy', 1, 2.08], ['di', 2, 3.3]];
    for (const [name, followers, mojo] of people) {
      await db.insertInto('users').values({
        username: name, username_key: name, email: `${name}@example.com`, password_hash: 'x', created_at: now,
        followers_count: followers, mojo,
      }).execute();
    }
    const ids = new Map((await db.selectFrom('users').select(['id', 'username']).execute()).map((u) => [u.username, u.id]));
    // The follows behind those counters: ana has 3 followers, cy 1, di 2.
    const follows: Array<[string, string]> = [['di', 'ana'], ['cy', 'ana'], ['bob', 'ana'], ['di', 'cy'], ['ana', 'di'], ['cy', 'di']];
    await db.insertInto('follows').values(follows.map(([a, b]) => ({ follower_id: ids.get(a)!, followee_id: ids.get(b)!, created_at: now }))).execute();
    await db.updateTable('users').set({ following_count: 0 }).execute();
    for (const [a] of follows) {
      await db.updateTable('users').set((eb) => ({ following_count: eb('following_count', '+', 1) })).where('id', '=', ids.get(a)!).execute();
    }

    assert.equal((await migrator.migrateTo('0012_mojo_ledger')).error, undefined);
    const events = await sqlRows<{ user_id: number; delta: number; mojo_after: number; cause: string; post_id: null; actor_id: null }>(db,
      'SELECT user_id, delta, mojo_after, cause, post_id, actor_id FROM mojo_events ORDER BY id');
    assert.deepEqual(events.map((e) => [Number(e.user_id), Number(e.delta), Number(e.mojo_after), e.cause, e.post_id, e.actor_id]), [
      [ids.get('ana'), 416, 416, 'recompute', null, null],
      [ids.get('cy'), 208, 208, 'recompute', null, null],
      [ids.get('di'), 330, 330, 'recompute', null, null],
    ]);
    // Each ledger adds up to its mojo, and check-counters finds nothing to say (its code reads
    // the schema as the later migrations leave it).
    await migrateToLatest(db);
    assert.deepEqual(await findCounterDrift(db), []);

    assert.equal((await migrator.migrateTo(before)).error, undefined);
    const tables = await sqlRows(db, dialectOf(db) === 'postgres'
      ? "SELECT tablename FROM pg_tables WHERE tablename = 'mojo_events'"
      : "SELECT name FROM sqlite_master WHERE name = 'mojo_events'");
    assert.deepEqual(tables, []);
    assert.equal((await migrator.migrateTo('0012_mojo_ledger')).error, undefined);
    assert.equal((await sqlRows(db, 'SELECT id FROM mojo_events')).length, 3);
  } finally {
    await drop();
  }
});

/** The ledger's indexes, by name. */
function ledgerIndexes(db: MigratedDatabase['db']): Promise<string[]> {
  return sqlRows<{ name: string }>(db, dialectOf(db) === 'postgres'
    ? "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'mojo_events' AND indexname <> 'mojo_events_pkey' ORDER BY 1"
    : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'mojo_events' ORDER BY 1").then((rows) => rows.map((r) => r.name));
}

test('0013 keeps every event and id, drops the index on the actor (and, on SQLite, AUTOINCREMENT), and goes down and up', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
    assert.equal((await migrator.migrateTo('0012_mojo_ledger')).error, undefined);
    const now = new Date().toISOString();
    const [actor, author] = await db.insertInto('users').values(['ana', 'bob'].map((name) => ({
      username: name, username_key: name, email: `${name}@example.com`, password_hash: 'x', created_at: now,
    }))).returning('id').execute();
    await db.insertInto('mojo_events').values([
      { user_id: author!.id, at: now, delta: 208, mojo_after: 208, cause: 'follower_new', post_id: null, actor_id: actor!.id },
      { user_id: author!.id, at: now, delta: -208, mojo_after: 0, cause: 'follower_lost', post_id: null, actor_id: actor!.id },
    ]).execute();
    const events = () => sqlRows(db, 'SELECT id, user_id, delta, cause, actor_id FROM mojo_events ORDER BY id');
    const before = await events();
    assert.deepEqual(await ledgerIndexes(db), ['mojo_events_actor', 'mojo_events_user']);

    assert.equal((await migrator.migrateTo('0013_lighter_ledger')).error, undefined);
    assert.deepEqual(await events(), before);
    assert.deepEqual(await ledgerIndexes(db), ['mojo_events_user']);
    if (dialectOf(db) === 'sqlite') {
      const definition = (await sqlRows<{ sql: string }>(db, "SELECT sql FROM sqlite_master WHERE name = 'mojo_events'"))[0]!.sql;
      assert.doesNotMatch(definition, /AUTOINCREMENT/);
      assert.match(definition, /CHECK \(cause IN/);
    }
    // The actor's removal still takes their name out of the ledger, without the index.
    await db.deleteFrom('users').where('id', '=', actor!.id).execute();
    assert.deepEqual((await events()).map((e) => e.actor_id), [null, null]);

    assert.equal((await migrator.migrateTo('0012_mojo_ledger')).error, undefined);
    assert.deepEqual(await ledgerIndexes(db), ['mojo_events_actor', 'mojo_events_user']);
    assert.equal((await migrator.migrateTo('0013_lighter_ledger')).error, undefined);
    assert.equal((await events()).length, 2);
  } finally {
    await drop();
  }
});
