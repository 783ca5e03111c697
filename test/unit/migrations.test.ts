import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type SQLite from 'better-sqlite3';
import { Kysely, Migrator, NO_MIGRATIONS, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../../server/db.ts';
import type { Database } from '../../server/schema.ts';
import { migrationProvider } from '../../migrations/index.ts';
import { openKeptSqlite } from '../kept-sqlite.ts';
import * as m0002 from '../../migrations/0002_ids_never_reused.ts';

/**
 * A scratch database with Kysely and, beside it, the raw connection: these tests check what
 * SQLite itself records (sqlite_master, sqlite_sequence, pragmas) around a migration. Kysely
 * prepares each query anew on it: those statements are kept too (test/kept-sqlite.ts).
 */
function openDatabase(file: string): { db: Kysely<Database>; sqlite: SQLite.Database } {
  const sqlite = openKeptSqlite(file);
  sqlite.pragma('foreign_keys = ON');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), sqlite };
}

test('all migrations run on an empty database, and down again', async () => {
  const { db, sqlite } = openDatabase(':memory:');
  try {
    const applied = await migrateToLatest(db);
    assert.ok(applied.includes('0001_init') && applied.includes('0002_ids_never_reused'));
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all()
      .map((row) => (row as { name: string }).name);
    for (const table of ['users', 'posts', 'hashtags', 'post_hashtags', 'ratings', 'comments', 'follows',
      'notifications', 'post_visits', 'post_ranks', 'moderation_log', 'reports']) {
      assert.ok(tables.includes(table), `table ${table}`);
    }
    assert.deepEqual(await migrateToLatest(db), [], 'a second run applies nothing');
    assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1);

    const migrator = new Migrator({ db, provider: migrationProvider('sqlite') });
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

describe('0002_ids_never_reused on a database populated under 0001', () => {
  // Migrated to 0002 exactly: later migrations may add indexes of their own.
  const M0002 = '0002_ids_never_reused';
  const now = '2026-01-01T10:00:00.000Z';

  /** Everything 0001 has a table for, with ids that point at each other. */
  function populate(sqlite: SQLite.Database): void {
    const run = (statement: string, ...params: unknown[]) => sqlite.prepare(statement).run(...params);
    for (const name of ['ana', 'bob', 'cy']) {
      run(`INSERT INTO users (username, username_key, email, password_hash, created_at) VALUES (?, ?, ?, 'x', ?)`,
        name, name, `${name}@x.io`, now);
    }
    run(`UPDATE users SET level = 'admin' WHERE id = 1`);
    run(`UPDATE users SET banned_at = ?, ban_reason = 'spam', banned_by = 1 WHERE id = 3`, now);
    for (let i = 1; i <= 5; i += 1) {
      run(`INSERT INTO posts (author_id, title, content, hashtags, visits, ratings_count, ratings_sum, average_rating,
        comments_count, created_at, updated_at) VALUES (?, ?, 'c', '["jazz"]', ?, 1, 4, 4, 1, ?, ?)`,
        (i % 2) + 2, `Post ${i}`, i * 10, now, now);
      run(`INSERT INTO post_hashtags (tag, post_id) VALUES ('jazz', ?)`, i);
      run(`INSERT INTO ratings (post_id, user_id, rating, created_at, updated_at) VALUES (?, 1, 4, ?, ?)`, i, now, now);
      run(`INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (?, 1, 'Nice', ?, ?)`, i, now, now);
      run(`INSERT INTO post_visits (post_id, visitor, last_counted_at) VALUES (?, 'a:xyz', ?)`, i, now);
      run(`INSERT INTO post_ranks (post_id, score, computed_at) VALUES (?, ?, ?)`, i, i / 10, now);
    }
    run(`INSERT INTO hashtags (tag, posts_count) VALUES ('jazz', 4)`);
    run(`INSERT INTO follows (follower_id, followee_id, created_at) VALUES (2, 3, ?), (3, 2, ?)`, now, now);
    run(`INSERT INTO notifications (user_id, type, subject, message, created_by_id, created_by, post_id, post_title, created_at)
      VALUES (2, 'general', 's', 'm', 1, 'ana', 1, 'Post 1', ?)`, now);
    run(`INSERT INTO moderation_log (admin_id, action, target_user_id, reason, created_at) VALUES (1, 'ban', 3, 'spam', ?)`, now);
    // An admin removed the newest article before the upgrade: under 0001 its id would be given again.
    run(`INSERT INTO moderation_log (admin_id, action, target_user_id, post_id, post_title, reason, created_at)
      VALUES (1, 'delete_post', 2, 5, 'Post 5', 'off-topic', ?)`, now);
    run(`DELETE FROM posts WHERE id = 5`);
  }

  /** Every row of every table, and every index with its definition. */
  function snapshot(sqlite: SQLite.Database) {
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'
      AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name`).all() as Array<{ name: string }>;
    const rows = Object.fromEntries(tables.map(({ name }) =>
      [name, sqlite.prepare(`SELECT * FROM ${name}`).all().map((row) => JSON.stringify(row)).sort()]));
    const indexes = sqlite.prepare(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name`).all();
    return { rows, indexes };
  }

  interface Populated {
    db: Kysely<Database>;
    sqlite: SQLite.Database;
    migrator: Migrator;
    /** The snapshot taken under 0001. */
    before: ReturnType<typeof snapshot>;
  }

  /** Runs `check` on an in-memory database populated under 0001 alone. */
  async function withPopulated0001(check: (populated: Populated) => Promise<void>): Promise<void> {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      const migrator = new Migrator({ db, provider: migrationProvider('sqlite') });
      assert.equal((await migrator.migrateTo('0001_init')).error, undefined);
      populate(sqlite);
      await check({ db, sqlite, migrator, before: snapshot(sqlite) });
    } finally {
      await db.destroy();
    }
  }

  const counters = (sqlite: SQLite.Database) =>
    Object.fromEntries((sqlite.prepare('SELECT name, seq FROM sqlite_sequence').all() as Array<{ name: string; seq: number }>)
      .map((row) => [row.name, row.seq]));

  test('rows, indexes and foreign keys survive; counters start at the largest id ever named', () => withPopulated0001(async ({ sqlite, migrator, before }) => {
    assert.ok(before.indexes.length >= 20);

    assert.equal((await migrator.migrateTo(M0002)).error, undefined);
    assert.deepEqual(snapshot(sqlite), before);
    assert.deepEqual(sqlite.pragma('foreign_key_check'), []);
    assert.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok');
    assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1, 'foreign keys are on again');
    for (const table of ['users', 'posts', 'comments', 'notifications', 'moderation_log']) {
      const { sql: definition } = sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(table) as { sql: string };
      assert.match(definition, /^CREATE TABLE "?\w+"? \(\s*id INTEGER PRIMARY KEY AUTOINCREMENT,/, table);
    }
    // Post 5's comment went with it before the upgrade and left no trace: comments count from 4.
    assert.deepEqual(counters(sqlite), { users: 3, posts: 5, comments: 4, notifications: 1, moderation_log: 2 });

    // New rows never take an id in use or deleted since, nor the article id the log names.
    sqlite.prepare('DELETE FROM comments WHERE id = 4').run();
    const post = sqlite.prepare(`INSERT INTO posts (author_id, title, content, created_at, updated_at) VALUES (2, 't', 'c', ?, ?)`).run(now, now);
    assert.equal(post.lastInsertRowid, 6);
    const comment = sqlite.prepare(`INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (6, 1, 'x', ?, ?)`).run(now, now);
    assert.equal(comment.lastInsertRowid, 5);

    // The foreign keys point at the rebuilt tables: they refuse orphans and still cascade.
    assert.throws(() => sqlite.prepare(`INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (99, 1, 'x', ?, ?)`).run(now, now), /FOREIGN KEY/);
    sqlite.prepare('DELETE FROM users WHERE id = 2').run();
    const left = (table: string, column: string) =>
      (sqlite.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = 2`).get() as { n: number }).n;
    assert.deepEqual([left('posts', 'author_id'), left('follows', 'follower_id'), left('notifications', 'user_id')], [0, 0, 0]);
    assert.equal((sqlite.prepare('SELECT target_user_id FROM moderation_log WHERE id = 2').get() as { target_user_id: unknown }).target_user_id, null);
    assert.deepEqual(sqlite.pragma('foreign_key_check'), []);
  }));

  test('down and up again keep every row and index', () => withPopulated0001(async ({ sqlite, migrator, before }) => {
    await migrator.migrateTo(M0002);
    assert.equal((await migrator.migrateTo('0001_init')).error, undefined);
    assert.deepEqual(snapshot(sqlite), before);
    assert.match((sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = 'posts'`).get() as { sql: string }).sql,
      /id INTEGER PRIMARY KEY,/);
    await migrator.migrateTo(M0002);
    assert.deepEqual(snapshot(sqlite), before);
    assert.deepEqual(sqlite.pragma('foreign_key_check'), []);
  }));

  test('inside a transaction it refuses to run rather than let DROP TABLE cascade', () => withPopulated0001(async ({ db, sqlite, before }) => {
    sqlite.exec('BEGIN');
    await assert.rejects(m0002.up(db), /must run outside a transaction/);
    sqlite.exec('ROLLBACK');
    assert.deepEqual(snapshot(sqlite), before);
  }));
});

describe('0007_drafts on a database with articles', () => {
  const now = '2026-01-01T10:00:00.000Z';
  const indexesOf = (sqlite: SQLite.Database) => (sqlite.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'posts' AND sql IS NOT NULL ORDER BY name`,
  ).all() as Array<{ name: string }>).map((row) => row.name);

  test('every article so far is published, the list indexes lead with the status, and down drops the drafts', async () => {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      const migrator = new Migrator({ db, provider: migrationProvider('sqlite') });
      assert.equal((await migrator.migrateTo('0006_search_index')).error, undefined);
      sqlite.prepare(`INSERT INTO users (username, username_key, email, password_hash, created_at) VALUES ('ana', 'ana', 'a@x.io', 'x', ?)`).run(now);
      for (const archived of [0, 1]) {
        sqlite.prepare(`INSERT INTO posts (author_id, title, content, archived, created_at, updated_at) VALUES (1, 't', 'c', ?, ?, ?)`)
          .run(archived, now, now);
      }
      const before = indexesOf(sqlite);
      assert.deepEqual(before, ['posts_active_created', 'posts_active_visits', 'posts_author_created', 'posts_created']);

      assert.equal((await migrator.migrateTo('0007_drafts')).error, undefined);
      assert.deepEqual(sqlite.prepare('SELECT id, archived, status FROM posts ORDER BY id').all(),
        [{ id: 1, archived: 0, status: 'published' }, { id: 2, archived: 1, status: 'published' }]);
      assert.deepEqual(indexesOf(sqlite), ['posts_author_listed', 'posts_listed_created', 'posts_listed_visits', 'posts_status_created']);
      const addPost = sqlite.prepare(`INSERT INTO posts (author_id, title, content, status, created_at, updated_at) VALUES (1, 't', 'c', ?, ?, ?)`);
      addPost.run('draft', now, now);
      assert.throws(() => addPost.run('pending', now, now), /CHECK/);

      // Down: a draft was never published, so it goes rather than become an article.
      assert.equal((await migrator.migrateTo('0006_search_index')).error, undefined);
      assert.deepEqual(sqlite.prepare('SELECT id FROM posts ORDER BY id').all(), [{ id: 1 }, { id: 2 }]);
      assert.deepEqual(indexesOf(sqlite), before);
      assert.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      await db.destroy();
    }
  });
});

describe('0009_reports_moderation_log on a database with notifications', () => {
  const now = '2026-01-01T10:00:00.000Z';
  const M0009 = '0009_reports_moderation_log';

  /** Runs `check` on a database migrated to the migration just before 0009 (`before`), with notifications. */
  async function atTheOneBefore(check: (db: Kysely<Database>, sqlite: SQLite.Database, migrator: Migrator, before: string) => Promise<void>): Promise<void> {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      const provider = migrationProvider('sqlite');
      const names = Object.keys(await provider.getMigrations());
      const BEFORE = names[names.indexOf(M0009) - 1]!;
      const migrator = new Migrator({ db, provider });
      assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
      const run = (statement: string, ...params: unknown[]) => sqlite.prepare(statement).run(...params);
      for (const name of ['ana', 'bob']) {
        run(`INSERT INTO users (username, username_key, email, password_hash, created_at) VALUES (?, ?, ?, 'x', ?)`, name, name, `${name}@x.io`, now);
      }
      run(`INSERT INTO posts (author_id, title, content, created_at, updated_at) VALUES (1, 'Post 1', 'c', ?, ?)`, now, now);
      for (let i = 1; i <= 3; i += 1) {
        run(`INSERT INTO notifications (user_id, type, subject, message, read, created_by_id, created_by, post_id, post_title, created_at)
          VALUES (2, 'other', ?, 'm', ?, 1, 'ana', 1, 'Post 1', ?)`, `s${i}`, i % 2, now);
      }
      // The newest notification was deleted: its id must not come back.
      run('DELETE FROM notifications WHERE id = 3');
      await check(db, sqlite, migrator, BEFORE);
    } finally {
      await db.destroy();
    }
  }

  const notificationRows = (sqlite: SQLite.Database) => sqlite.prepare('SELECT * FROM notifications ORDER BY id').all();
  const indexesOf = (sqlite: SQLite.Database, table: string) =>
    sqlite.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name`).all(table);
  const seq = (sqlite: SQLite.Database) => (sqlite.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'notifications'`).get() as { seq: number }).seq;

  test('notifications keep their rows, ids, indexes and counter, and take the two new types only', () => atTheOneBefore(async (_db, sqlite, migrator) => {
    const rows = notificationRows(sqlite);
    const indexes = indexesOf(sqlite, 'notifications');
    assert.equal((await migrator.migrateTo(M0009)).error, undefined);
    assert.deepEqual(notificationRows(sqlite), rows);
    assert.deepEqual(indexesOf(sqlite, 'notifications'), indexes);
    assert.equal(seq(sqlite), 3);
    assert.deepEqual(sqlite.pragma('foreign_key_check'), []);
    assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1);
    const insert = sqlite.prepare(`INSERT INTO notifications (user_id, type, subject, message, created_at) VALUES (2, ?, 's', 'm', ?)`);
    assert.equal(insert.run('report_closed', now).lastInsertRowid, 4, 'the deleted newest id is not given again');
    insert.run('comment_deleted', now);
    assert.throws(() => insert.run('whatever', now), /CHECK/);
    // Still the child of users: a deleted account takes its notifications.
    sqlite.prepare('DELETE FROM users WHERE id = 2').run();
    assert.equal((sqlite.prepare('SELECT count(*) AS n FROM notifications').get() as { n: number }).n, 0);
  }));

  test('reports: the reasons and types the schema allows, one open report per reader and target, closed by triggers when the content goes',
    () => atTheOneBefore(async (_db, sqlite, migrator) => {
      assert.equal((await migrator.migrateTo(M0009)).error, undefined);
      const run = (statement: string, ...params: unknown[]) => sqlite.prepare(statement).run(...params);
      run(`INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (1, 2, 'hi', ?, ?)`, now, now);
      const report = sqlite.prepare(`INSERT INTO reports (reporter_id, target_type, target_id, target_author_id, reason, created_at)
        VALUES (?, ?, ?, ?, ?, ?)`);
      report.run(2, 'post', 1, 1, 'spam', now);
      report.run(1, 'comment', 1, 2, 'off-topic', now);
      assert.throws(() => report.run(2, 'post', 1, 1, 'other', now), /UNIQUE/);
      assert.throws(() => report.run(1, 'post', 1, 1, 'boring', now), /CHECK/);
      assert.throws(() => report.run(1, 'user', 2, 2, 'spam', now), /CHECK/);
      run(`UPDATE reports SET status = 'closed', resolution = 'dismissed', closed_at = ? WHERE id = 1`, now);
      report.run(2, 'post', 1, 1, 'other', now);
      run('DELETE FROM posts WHERE id = 1');
      const left = sqlite.prepare('SELECT target_type, status, resolution FROM reports ORDER BY id').all();
      assert.deepEqual(left, [
        { target_type: 'post', status: 'closed', resolution: 'dismissed' },
        { target_type: 'comment', status: 'closed', resolution: 'removed' },
        { target_type: 'post', status: 'closed', resolution: 'removed' },
      ], 'the article and, through it, its comment');
    }));

  test('down and up again', () => atTheOneBefore(async (_db, sqlite, migrator, BEFORE) => {
    const rows = notificationRows(sqlite);
    assert.equal((await migrator.migrateTo(M0009)).error, undefined);
    sqlite.prepare(`INSERT INTO notifications (user_id, type, subject, message, created_at) VALUES (2, 'report_closed', 's', 'm', ?)`).run(now);
    assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
    assert.deepEqual(notificationRows(sqlite), rows, 'the new types go; the rest stay');
    assert.equal(seq(sqlite), 4);
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') AND name LIKE '%report%'`).all();
    assert.deepEqual(tables, []);
    assert.equal((await migrator.migrateTo(M0009)).error, undefined);
    assert.deepEqual(sqlite.pragma('foreign_key_check'), []);
  }));
});
