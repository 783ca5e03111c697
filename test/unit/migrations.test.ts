import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Migrator, NO_MIGRATIONS, sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db.ts';
import { migrationProvider } from '../../migrations/index.ts';

test('all migrations run on an empty database, and down again', async () => {
  const { db, sqlite } = openDatabase(':memory:');
  try {
    const applied = await migrateToLatest(db);
    assert.ok(applied.includes('0001_init'));
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all()
      .map((row) => (row as { name: string }).name);
    for (const table of ['users', 'posts', 'hashtags', 'post_hashtags', 'ratings', 'comments', 'follows',
      'notifications', 'post_visits', 'post_ranks', 'moderation_log']) {
      assert.ok(tables.includes(table), `table ${table}`);
    }
    assert.deepEqual(await migrateToLatest(db), [], 'a second run applies nothing');
    assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1);

    const migrator = new Migrator({ db, provider: migrationProvider });
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    assert.equal(down.error, undefined);
    const left = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'posts'`.execute(db);
    assert.equal(left.rows[0]!.n, 0);
  } finally {
    await db.destroy();
  }
});

test('the schema refuses what would corrupt counters', async () => {
  const { db, sqlite } = openDatabase(':memory:');
  try {
    await migrateToLatest(db);
    const now = new Date().toISOString();
    const addUser = sqlite.prepare(`INSERT INTO users (username, username_key, email, password_hash, created_at)
      VALUES (?, ?, ?, 'x', ?)`);
    addUser.run('Ana', 'ana', 'ana@x.io', now);
    assert.throws(() => addUser.run('ANA', 'ana', 'other@x.io', now), /UNIQUE/);
    assert.throws(() => addUser.run('Bob', 'bob', 'ana@x.io', now), /UNIQUE/);
    addUser.run('Bob', 'bob', 'bob@x.io', now);
    const follow = sqlite.prepare('INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)');
    follow.run(1, 2, now);
    assert.throws(() => follow.run(1, 2, now), /UNIQUE|PRIMARY/);
    assert.throws(() => follow.run(1, 1, now), /CHECK/);
    sqlite.prepare(`INSERT INTO posts (author_id, title, content, created_at, updated_at) VALUES (1, 't', 'c', ?, ?)`).run(now, now);
    const rate = sqlite.prepare('INSERT INTO ratings (post_id, user_id, rating, created_at, updated_at) VALUES (1, ?, ?, ?, ?)');
    assert.throws(() => rate.run(2, 6, now, now), /CHECK/);
    rate.run(2, 5, now, now);
    assert.throws(() => rate.run(2, 4, now, now), /UNIQUE|PRIMARY/);
  } finally {
    await db.destroy();
  }
});
