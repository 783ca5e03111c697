// Migration 0009 on either database: the notifications a site has keep their rows and ids and
// take the two new types; the triggers close a report whose content goes; down and up again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, Migrator } from 'kysely';
import { migrationProvider } from '../../migrations/index.ts';
import { dialectOf, migrateToLatest } from '../../server/db.ts';
import { freshMigratedDatabase } from '../migration-databases.ts';

test('0009 keeps the notifications, takes the new types, closes reports of content that goes, and goes down and up again', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const provider = migrationProvider(dialectOf(db));
    const migrator = new Migrator({ db, provider });
    const names = Object.keys(await provider.getMigrations());
    // The migration just before 0009, and those from 0009 on.
    const before = names[names.indexOf('0009_reports_moderation_log') - 1]!;
    const later = names.filter((name) => name > before);
    assert.equal((await migrator.migrateTo(before)).error, undefined);
    const now = new Date().toISOString();
    const users = await db.insertInto('users').values(['ana', 'bob'].map((name) => ({
      username: name, username_key: name, email: `${name}@example.com`, password_hash: 'x', created_at: now,
    }))).returning('id').execute();
    const [ana, bob] = users.map((u) => u.id) as [number, number];
    // The posts table before 0014 (no content_html yet): not the schema's type of today.
    const [post] = await (db as Kysely<any>).insertInto('posts').values({
      author_id: ana, title: 'A title long enough to be real', content: 'c', hashtags: '[]', created_at: now, updated_at: now,
    }).returning('id').execute();
    await db.insertInto('notifications').values([1, 2].map((i) => ({
      user_id: bob, type: 'other' as const, subject: `s${i}`, message: 'm', created_by_id: ana, created_by: 'ana',
      post_id: post!.id, post_title: 'A title', created_at: now,
    }))).execute();
    const kept = await db.selectFrom('notifications').selectAll().orderBy('id').execute();

    assert.equal((await migrator.migrateTo('0009_reports_moderation_log')).error, undefined);
    assert.deepEqual(await db.selectFrom('notifications').selectAll().orderBy('id').execute(), kept);
    const [added] = await db.insertInto('notifications').values({
      user_id: bob, type: 'report_closed', subject: 's', message: 'm', created_at: now,
    }).returning('id').execute();
    assert.ok(added!.id > kept.at(-1)!.id);
    await assert.rejects(db.insertInto('notifications').values({
      user_id: bob, type: 'nonsense' as 'other', subject: 's', message: 'm', created_at: now,
    }).execute(), /check/i);

    await db.insertInto('reports').values({
      reporter_id: bob, target_type: 'post', target_id: post!.id, target_author_id: ana, reason: 'spam', created_at: now,
    }).execute();
    await db.deleteFrom('posts').where('id', '=', post!.id).execute();
    const closed = await db.selectFrom('reports').select(['status', 'resolution', 'closed_at']).executeTakeFirstOrThrow();
    assert.deepEqual([closed.status, closed.resolution], ['closed', 'removed']);
    assert.match(closed.closed_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await db.insertInto('moderation_log').values({
      admin_id: ana, action: 'ban', target_user_id: bob, reason: 'r', ban_until: now, created_at: now,
    }).execute();

    assert.equal((await migrator.migrateTo(before)).error, undefined);
    assert.deepEqual((await db.selectFrom('notifications').select('id').orderBy('id').execute()).map((n) => n.id), kept.map((n) => n.id));
    assert.deepEqual(await migrateToLatest(db), later, 'down leaves nothing behind that stops it running again');
  } finally {
    await drop();
  }
});
