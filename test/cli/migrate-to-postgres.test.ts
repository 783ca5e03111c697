// admin migrate-to-postgres, as an operator runs it: a seeded site with a few weeks of life on it
// (bans, notifications, deleted articles and comments) moves from its SQLite file to an empty
// PostgreSQL database, and the site answers there exactly as it did on SQLite.
//
// The source is always a SQLite file and the target always PostgreSQL: the same test whichever
// database the suite runs on, so it runs once, under `npm run test:pg`, on that run's cluster.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { generate } from 'otplib';
import pg from 'pg';
import { databasePath, migrateToLatest, openDatabase } from '../../server/db.ts';
import { openPostgres, postgresTypes } from '../../server/postgres/postgres.database.ts';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { listSqliteTables } from '../../server/sqlite/sqlite.export.ts';
import { createPost } from '../api/factories.ts';
import { startFakeS3 } from '../fake-s3.ts';
import {
  createAdmin, createUser, loginAs, samplePng, sqlNumber, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { dropTestDatabase, onPostgres, testPostgresBase } from '../postgres-databases.ts';
import { waitFor } from '../wait-for.ts';
import { ADMIN_BUNDLE, runScript, type Run } from './cli-helpers.ts';

const DEMO_PASSWORD = 'beatnik-demo';
const TABLES = [
  'users', 'posts', 'hashtags', 'post_hashtags', 'ratings', 'comments', 'follows', 'notifications',
  'post_visits', 'post_ranks', 'post_rank_order', 'rank_refresh', 'moderation_log', 'post_search', 'reports', 'revoked_tokens',
  'user_mutes', 'hashtag_mutes', 'mojo_events', 'jobs', 'account_tokens', 'mail_items', 'two_factor', 'two_factor_recovery_codes', 'site_settings', 'site_pages', 'invites',
  'backups',
  'federation_keys', 'remote_actors', 'remote_followers', 'post_reactions', 'user_remote_mutes', 'federation_blocks',
  'federation_deliveries', 'federation_kv',
];
/** The fediverse's tables (migration 0022): a seeded site never met another server. */
const FEDERATION_TABLES = ['federation_keys', 'remote_actors', 'remote_followers', 'post_reactions', 'user_remote_mutes',
  'federation_blocks', 'federation_deliveries', 'federation_kv'];
/** Tables a seeded site leaves empty: no mail queued, no reset link out, no settings saved, no backup made yet. */
const EMPTY_WHEN_SEEDED = ['jobs', 'account_tokens', 'mail_items', 'site_settings', 'site_pages', 'backups', ...FEDERATION_TABLES];
/** Whatever DATABASE_URL says, the command reads DATA_DIR's file: here it names nothing at all. */
const UNUSED_DATABASE_URL = 'postgres://nobody@127.0.0.1:1/nothing';

let base: string;
const databases: string[] = [];

/** Runs one statement on the database at `url`; returns its rows. */
async function onDatabase<T = any>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, types: postgresTypes });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A new database with nothing in it, or migrated and empty as a first start leaves it. */
async function newDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const name = `beatnik_move_${process.pid}_${databases.length + 1}`;
  await onDatabase(`${base}/postgres`, `CREATE DATABASE ${name}`);
  const url = `${base}/${name}`;
  databases.push(url);
  if (options.migrated) {
    const db = openPostgres(url);
    await migrateToLatest(db);
    await db.destroy();
  }
  return url;
}

/** Every table of the database at `url` with its row count: what "nothing changed" compares. */
async function snapshot(url: string): Promise<Record<string, number>> {
  const tables = await onDatabase<{ name: string }>(url,
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (await onDatabase(url, `SELECT count(*) AS n FROM "${name}"`))[0].n;
  return counts;
}

function migrate(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runScript(ADMIN_BUNDLE, dataDir, ['migrate-to-postgres', ...args], undefined, { DATABASE_URL: UNUSED_DATABASE_URL, ...env });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What the site went through on SQLite before the move. */
interface History {
  admin: TestUser;
  alice: TestUser;
  bob: TestUser;
  /** A seeded account the seeded admin banned for good. */
  bannedEmail: string;
  article: { id: number; image: string };
  /** An account with two-factor sign-in on, and the secret its codes come from. */
  dora: TestUser & { secret: string };
  /** A session Bob ended (POST /api/auth/logout): it must stay ended after the move. */
  signedOut: string;
  /** Ids given out and deleted since: the newest of each, which a new row must not take again. */
  deletedPostId: number;
  deletedCommentId: number;
}

/** Seeds a small site, then lives on it through the API: the rows a seed alone does not make. */
async function liveOn(dataDir: string): Promise<History> {
  const seeded = await runScript('scripts/seed.ts', dataDir,
    ['--users', '20', '--posts', '200', '--images', '0.3', '--seed', '7'], undefined, { DATABASE_URL: '' });
  assert.equal(seeded.code, 0, seeded.stderr);
  const server = await startTestServer({ config: { dataDir, databaseUrl: null } });
  try {
    const seededAdmin = await loginAs(server, 'admin@beatnik.example', DEMO_PASSWORD);
    const carol = await createUser(server, { username: `carol${process.pid}` });
    const alice = await createUser(server, { username: `alice${process.pid}` });
    const bob = await createUser(server, { username: `bob${process.pid}` });
    // An admin with a later id than the user they ban: the copy must not trip over the reference.
    const admin = await createAdmin(server, { username: `editor${process.pid}` });
    const as = (token: string, method: string, url: string, json?: unknown) => server.api(method, url, { token, json });

    const article = await createPost(server, alice, { hashtags: ['jazz', 'moving'] }, await samplePng());
    assert.equal((await as(bob.token, 'POST', `/api/posts/${article.id}/rate`, { rating: 4 })).status, 200);
    assert.equal((await as(bob.token, 'POST', `/api/posts/${article.id}/comments`, { content: 'Well put.' })).status, 201);
    assert.equal((await as(bob.token, 'POST', `/api/follow/${alice.id}`)).status, 200);
    assert.equal((await as(bob.token, 'GET', `/api/posts/${article.id}`)).status, 200);
    // Reports: one left open, one dismissed, one closed by the article's deletion below.
    assert.equal((await as(bob.token, 'POST', '/api/reports', { target_type: 'post', target_id: article.id, reason: 'spam', note: 'Ads' })).status, 201);
    assert.equal((await as(carol.token, 'POST', '/api/reports', { target_type: 'post', target_id: article.id, reason: 'other' })).status, 201);
    assert.equal((await as(admin.token, 'POST', `/api/admin/reports/post/${article.id}/dismiss`)).status, 200);
    assert.equal((await as(carol.token, 'POST', '/api/reports', { target_type: 'post', target_id: article.id, reason: 'off-topic' })).status, 201);
    const dropped = await as(bob.token, 'POST', `/api/posts/${article.id}/comments`, { content: 'On second thought…' });
    assert.equal((await as(bob.token, 'DELETE', `/api/comments/${dropped.body.id}`)).status, 200);
    // Mutes: an author and a hashtag Bob would rather not read.
    assert.equal((await as(bob.token, 'PUT', `/api/users/me/mutes/users/${carol.id}`)).status, 200);
    assert.equal((await as(bob.token, 'PUT', '/api/users/me/mutes/hashtags/moving')).status, 200);

    const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString();
    assert.equal((await as(admin.token, 'POST', '/api/admin/ban-user',
      { user_id: carol.id, ban_type: 'temporary', ban_reason: 'Spam', ban_until: nextWeek })).status, 200);
    const seededUser = await server.api('GET', '/api/users/2');
    assert.equal((await as(seededAdmin, 'POST', '/api/admin/ban-user',
      { user_id: 2, ban_type: 'permanent', ban_reason: 'Threats' })).status, 200);
    assert.equal((await as(admin.token, 'POST', '/api/admin/send-notification',
      { user_id: bob.id, subject: 'Welcome', message: 'Glad to have you.', notification_type: 'general' })).status, 200);

    // The newest articles are gone: one removed by an admin (the moderation log keeps its id),
    // then a newer one by its author (only SQLite's sequence remembers that id).
    const removed = await createPost(server, alice);
    assert.equal((await as(bob.token, 'POST', '/api/reports', { target_type: 'post', target_id: removed.id, reason: 'harassment' })).status, 201);
    assert.equal((await as(admin.token, 'DELETE', `/api/admin/delete-post/${removed.id}?reason=Off%20topic`)).status, 200);
    // An invitation out: its code works after the move too (the server on PostgreSQL lists it).
    assert.equal((await as(admin.token, 'POST', '/api/invites', { uses: 3 })).status, 201);
    const withdrawn = await createPost(server, alice);
    assert.equal((await as(alice.token, 'DELETE', `/api/posts/${withdrawn.id}`)).status, 200);
    const notices = await as(alice.token, 'GET', '/api/notifications');
    assert.equal((await as(alice.token, 'POST', `/api/notifications/${notices.body.notifications[0].id}/mark-read`)).status, 200);
    const signedOut = await loginAs(server, bob.email, bob.password);
    assert.equal((await as(signedOut, 'POST', '/api/auth/logout')).status, 200);
    // Two-factor sign-in: Dora's secret and recovery codes must keep working.
    const dora = await createUser(server, { username: `dora${process.pid}` });
    const setup = await as(dora.token, 'POST', '/api/users/me/two-factor/setup', { password: dora.password });
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(Date.now() / 1000) - 30 });
    assert.equal((await as(dora.token, 'POST', '/api/users/me/two-factor', { code })).status, 200);

    return {
      admin, alice, bob, dora: { ...dora, secret: setup.body.secret },
      bannedEmail: `${seededUser.body.username.toLowerCase()}@beatnik.example`,
      article: { id: article.id, image: path.basename(article.image) },
      deletedPostId: withdrawn.id,
      deletedCommentId: dropped.body.id,
      signedOut,
    };
  } finally {
    await server.close(); // keeps the data directory
  }
}

describe('admin migrate-to-postgres', { skip: !onPostgres && 'SQLite to PostgreSQL: run once, under npm run test:pg' }, () => {
  let dataDir: string;
  let history: History;
  let target: string;
  let moved: Run;

  before(async () => {
    base = testPostgresBase()!;
    dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-move-'));
    history = await liveOn(dataDir);
    target = await newDatabase();
    moved = await migrate(dataDir, ['--to', target]);
  });

  after(async () => {
    for (const url of databases) await dropTestDatabase(url);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('copies every table into an empty database, showing progress and a checked summary', async () => {
    assert.equal(moved.code, 0, moved.stderr);
    const file = openDatabase(databasePath(dataDir));
    try {
      // A table a later migration adds must be copied too (the command refuses a table it does not know).
      assert.deepEqual((await listSqliteTables(file)).sort(), [...TABLES].sort());
    } finally {
      await file.destroy();
    }
    for (const table of TABLES) {
      assert.match(moved.stderr, new RegExp(`^${table} +(\\d+)/\\1 rows$`, 'm'), `progress of ${table}`);
      assert.match(moved.stdout, new RegExp(`^${table} +(\\d+) +\\1 +ok$`, 'm'), `summary of ${table}`);
    }
    assert.match(moved.stderr, /^building \d+ indexes and checking \d+ kinds of reference…$/m);
    assert.match(moved.stdout, /^Images: nothing to copy, they stay in .*uploads \(no S3_ variables set\)/m);
    assert.match(moved.stdout, /^Counters: every counter agrees with the base tables on PostgreSQL$/m);
    assert.match(moved.stdout, /^Start Beatnik with DATABASE_URL set to that URL and the same DATA_DIR \(it holds the JWT secret\)\.$/m);
    const { deletedPostId, deletedCommentId } = history;
    assert.match(moved.stdout, new RegExp(`^Next ids: users \\d+, posts ${deletedPostId + 1}, comments ${deletedCommentId + 1}, `, 'm'));
    assert.doesNotMatch(moved.stdout + moved.stderr, /postgres:\/\//, 'the URL (which may hold a password) is never printed');
  });

  test('the site on PostgreSQL answers as it did on SQLite', async () => {
    const startedAt = new Date().toISOString();
    const [onSqlite, onPostgres] = [
      await startTestServer({ config: { dataDir, databaseUrl: null } }),
      await startTestServer({ config: { dataDir, databaseUrl: target } }),
    ];
    try {
      // Each server ranks at start; then both rank at the same instant, so the lists can match.
      const now = Date.now();
      for (const server of [onSqlite, onPostgres]) {
        await waitFor(async () => await sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_ranks WHERE computed_at >= ?', startedAt) > 0,
          { what: 'the ranking refresh at start' });
        await recomputeRanks(server.ctx.db, now);
        server.ctx.readCache?.invalidate();
      }
      const { admin, alice, bob, article } = history;
      const seeded = (await onSqlite.api('GET', '/api/ranks?limit=1')).body.posts[0].id;
      const same = async (url: string, token?: string) => {
        const [was, is] = [await onSqlite.api('GET', url, { token }), await onPostgres.api('GET', url, { token })];
        assert.equal(was.status, 200, `${url} on SQLite: ${JSON.stringify(was.body)}`);
        assert.deepEqual([is.status, is.body], [was.status, was.body], url);
      };
      for (const url of [
        '/api/frontpage', '/api/posts?limit=50', '/api/posts?skip=50&limit=50', '/api/posts?hashtag=moving',
        '/api/ranks?limit=100', '/api/ranks?criteria=visits&time_period=30d', '/api/hashtags',
        '/api/authors?limit=50', '/api/authors?sort_by=posts_desc', `/api/users/by-username/${alice.username}`,
        `/api/users/${alice.id}/posts`, `/api/users/${alice.id}/followers`, `/api/posts/${article.id}`,
        `/api/posts/${article.id}/comments`, `/api/posts/${seeded}/comments`,
        // The search index came along: the same matches, in the same order, with the same snippets.
        '/api/search?q=the%20nig&limit=100', '/api/search?q=the&skip=40&limit=30', `/api/search?q=${alice.username}`,
      ]) await same(url);
      await same(`/api/posts/${article.id}`, bob.token);
      for (const url of ['/api/users/me', '/api/users/me/stats', '/api/notifications', '/api/users/me/mutes', '/api/posts?limit=100']) {
        await same(url, alice.token);
        await same(url, bob.token);
      }
      await same('/api/moderation');
      for (const url of ['/api/admin/users?limit=100', '/api/admin/banned-users', '/api/admin/stats', '/api/admin/posts?limit=100',
        '/api/admin/reports', '/api/admin/reports?status=closed', '/api/invites']) {
        await same(url, admin.token);
      }
      // Tokens carry over under the same secret; the one signed out stays ended.
      assert.equal((await onPostgres.api('GET', '/api/users/me', { token: history.signedOut })).status, 401);
      const image = await onPostgres.api('GET', `/uploads/${article.image}`);
      assert.equal(image.status, 200, 'the images stay in DATA_DIR/uploads, which the server on PostgreSQL reads');
    } finally {
      await onSqlite.close();
      await onPostgres.close();
    }
  });

  test('on PostgreSQL, passwords still work, and new ids come after every id ever used', async () => {
    const server = await startTestServer({ config: { dataDir, databaseUrl: target } });
    try {
      await loginAs(server, 'admin@beatnik.example', DEMO_PASSWORD);
      const alice = { ...history.alice, token: await loginAs(server, history.alice.email, history.alice.password) };
      const wrong = await server.api('POST', '/api/auth/login', { json: { email: alice.email, password: 'not-the-password' } });
      assert.equal(wrong.status, 401);
      const banned = await server.api('POST', '/api/auth/login', { json: { email: history.bannedEmail, password: DEMO_PASSWORD } });
      assert.equal(banned.status, 403, 'the ban came along');

      const article = await createPost(server, alice);
      assert.equal(article.id, history.deletedPostId + 1, 'the id after the deleted newest article');
      const comment = await server.api('POST', `/api/posts/${article.id}/comments`,
        { token: history.bob.token, json: { content: 'Hello again' } });
      assert.equal(comment.body.id, history.deletedCommentId + 1);
      const user = await createUser(server);
      assert.equal(user.id, await sqlNumber(server.ctx.db, 'SELECT max(id) FROM users'));
      // Two-factor sign-in came along: the password asks for a code, and the app's code answers it.
      const { dora } = history;
      const challenge = (await server.api('POST', '/api/auth/login', { json: { email: dora.email, password: dora.password } })).body.challenge;
      const signedIn = await server.api('POST', '/api/auth/login/2fa', { json: { challenge, code: await generate({ secret: dora.secret }) } });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM two_factor_recovery_codes WHERE user_id = ?', dora.id), 10);
    } finally {
      await server.close();
    }
    const counters = await runScript(ADMIN_BUNDLE, dataDir, ['check-counters'], undefined, { DATABASE_URL: target });
    assert.deepEqual([counters.code, counters.stdout.trim()], [0, 'All counters agree with the base tables'], counters.stderr);
  });

  test('accepts a database Beatnik migrated but nobody used, and copies the images into the S3 bucket', async () => {
    const s3 = await startFakeS3();
    try {
      const url = await newDatabase({ migrated: true });
      const run = await migrate(dataDir, ['--to', url], { ...s3.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
      assert.equal(run.code, 0, run.stderr);
      const files = readdirSync(path.join(dataDir, 'uploads')).sort();
      assert.ok(files.length > 0);
      assert.deepEqual(await s3.keys(), files);
      assert.match(run.stdout, new RegExp(`^Images: copied ${files.length} files from .* to S3 bucket "${s3.bucket}"`, 'm'));
      assert.match(run.stderr, new RegExp(`^images +${files.length}/${files.length} files$`, 'm'));
      assert.match(run.stdout, /^Start Beatnik with DATABASE_URL set to that URL, the same S3_ variables, and the same DATA_DIR \(it holds the JWT secret\) or JWT_SECRET set to the contents of DATA_DIR\/jwt-secret\.$/m);
      const moved = await snapshot(url);
      const original = await snapshot(target);
      for (const table of ['users', 'posts', 'ratings', 'comments', 'notifications']) assert.ok(moved[table]! > 0, table);
      assert.equal(moved.moderation_log, original.moderation_log);
    } finally {
      await s3.stop();
    }
  });

  test('refuses a database with rows or with tables that are not Beatnik\'s, and changes nothing', async () => {
    const used = await newDatabase({ migrated: true });
    await onDatabase(used, `INSERT INTO hashtags (tag, posts_count) VALUES ('jazz', 1)`);
    const foreign = await newDatabase();
    await onDatabase(foreign, 'CREATE TABLE invoices (id integer PRIMARY KEY)');
    for (const [url, reason] of [
      [used, /it is not empty \(hashtags has rows\)/],
      // The site's move filled every table: five are named, the rest counted.
      [target, new RegExp(`it is not empty \\((\\w+, ){4}\\w+ and ${TABLES.length - EMPTY_WHEN_SEEDED.length - 5} more have rows\\)`)],
      [foreign, /it has tables that are not Beatnik's \(invoices\)/],
    ] as const) {
      const before = await snapshot(url);
      const run = await migrate(dataDir, ['--to', url]);
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, /^admin: PostgreSQL at 127\.0\.0\.1:\d+\/\w+ cannot receive the copy: /);
      assert.match(run.stderr, reason);
      assert.equal(run.stdout, '');
      assert.deepEqual(await snapshot(url), before);
    }
  });

  test('a copy that fails is undone, leaving the target without rows', async () => {
    const broken = mkdtempSync(path.join(tmpdir(), 'beatnik-move-broken-'));
    try {
      cpSync(dataDir, broken, { recursive: true });
      // A rating of an article that does not exist, as a file written with foreign keys off could hold.
      const file = openDatabase(databasePath(broken));
      await sql`PRAGMA foreign_keys = OFF`.execute(file);
      await sql`INSERT INTO ratings (post_id, user_id, rating, created_at, updated_at)
        VALUES (999999, 1, 5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(file);
      await file.destroy();
      const url = await newDatabase();
      const run = await migrate(broken, ['--to', url]);
      assert.equal(run.code, 1);
      assert.match(run.stderr,
        /^admin: the copy failed and was undone, PostgreSQL at \S+ has no rows: .*violates foreign key constraint "ratings_post_id_fkey"$/m);
      const after = await snapshot(url);
      assert.deepEqual(Object.entries(after).filter(([table, rows]) => rows > 0 && !table.startsWith('kysely_')), []);
      assert.deepEqual(Object.keys(after).sort(), [...TABLES, 'kysely_migration', 'kysely_migration_lock', 'rate_limits'].sort(),
        'migrated, so the same command can run again once the file is mended');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  test('an unreachable server is one line naming host and port, never the password', async () => {
    const port = await freePort();
    const run = await migrate(dataDir, ['--to', `postgres://beatnik:s3cret-pw@127.0.0.1:${port}/beatnik`]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `admin: Cannot connect to PostgreSQL at 127.0.0.1:${port}/beatnik (--to): connection refused\n`);
  });

  test('a missing or invalid --to is a usage error', async () => {
    for (const args of [[], ['--to', 'mysql://db.example.org/beatnik'], ['--to', 'postgres://db.example.org']]) {
      const run = await migrate(dataDir, args);
      assert.equal(run.code, 2, `${args}: ${run.stderr}`);
      assert.match(run.stderr, /^admin: --to (is required|must be a PostgreSQL URL)/);
    }
  });

  test('refuses while a server runs on the data directory', async () => {
    const url = await newDatabase();
    const server = await startTestServer({ config: { dataDir, databaseUrl: null } });
    try {
      const run = await migrate(dataDir, ['--to', url]);
      assert.equal(run.code, 1);
      assert.equal(run.stderr, `admin: a server (pid ${process.pid}) is using ${dataDir}: stop it first, so that the copy is whole\n`);
      assert.deepEqual(await snapshot(url), {});
    } finally {
      await server.close();
    }
  });

  test('refuses a data directory without a database', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'beatnik-move-empty-'));
    try {
      const run = await migrate(empty, ['--to', await newDatabase()]);
      assert.equal(run.code, 1);
      assert.equal(run.stderr, `admin: no Beatnik database at ${path.join(empty, 'beatnik.db')} (set DATA_DIR)\n`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
