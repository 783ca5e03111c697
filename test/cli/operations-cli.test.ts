// Operator commands: a live backup that restores and passes integrity_check, restore refused
// while a server runs (on PostgreSQL: both say what to run instead), stats, and password resets.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { integrityOf } from '../../server/sqlite/sqlite.files.ts';
import { apiCall, createUser, loginAs, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { ADMIN_BUNDLE, cli, runScript } from './cli-helpers.ts';
import { startFakeS3 } from '../fake-s3.ts';
import { onPostgres } from '../postgres-databases.ts';
import { openKeptSqlite } from '../kept-sqlite.ts';

describe('backup and restore', { skip: onPostgres && 'SQLite files only' }, () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server?.stop(); });

  test('a backup taken while the server writes is consistent, restores, and serves again', async () => {
    const author = await createUser(server, { password: 'before-backup' });
    const kept = await createPost(server, author, { title: 'An article that must survive' });
    // Keep writing while the backup runs.
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        await server.api('POST', `/api/posts/${kept.id}/comments`, { token: author.token, json: { content: `busy ${n++}` } });
      }
      return n;
    })();
    const file = path.join(server.dataDir, '..', `${path.basename(server.dataDir)}-backup.db`);
    const run = await cli(server.dataDir, ['backup', file]);
    writing = false;
    const written = await writer;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Backed up to .* \(\d+\.\d MB, integrity ok\)\n$/);
    assert.ok(written > 0, 'the server wrote during the backup');
    assert.equal(integrityOf(file), 'ok');
    const copy = openKeptSqlite(file, { readonly: true });
    const titles = copy.prepare('SELECT title FROM posts').pluck().all();
    const comments = copy.prepare('SELECT count(*) FROM comments').pluck().get() as number;
    copy.close();
    assert.deepEqual(titles, ['An article that must survive']);
    assert.ok(comments <= written, 'the copy is a snapshot of one moment');

    // The backup refuses to overwrite.
    assert.equal((await cli(server.dataDir, ['backup', file])).code, 1);

    // Changes after the backup will be rolled back by the restore.
    const later = await createPost(server, author, { title: 'Written after the backup was made' });
    const refused = await cli(server.dataDir, ['restore', file]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /a server \(pid \d+\) is using .*: stop it first/);

    await server.close();
    const restored = await cli(server.dataDir, ['restore', file]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /Kept the previous database as .*before-restore-/);
    assert.ok(readdirSync(server.dataDir).some((f) => f.startsWith('beatnik.db.before-restore-')));

    const again = await startTestServer({ config: { dataDir: server.dataDir } });
    try {
      assert.equal((await again.api('GET', `/api/posts/${kept.id}`)).status, 200);
      assert.equal((await again.api('GET', `/api/posts/${later.id}`)).status, 404, 'the later article is not in the backup');
      // The search index came back with its articles, and only with them.
      assert.deepEqual((await again.api('GET', '/api/search?q=survive')).body.posts.map((p: { id: number }) => p.id), [kept.id]);
      assert.equal((await again.api('GET', '/api/search?q=written%20after')).body.total, 0);
      assert.equal(typeof await loginAs(again, author.email, 'before-backup'), 'string');
    } finally {
      await again.close();
    }
  });

  test('restore refuses a file that is not a Beatnik database', async () => {
    const run = await cli(server.dataDir, ['restore', path.join(server.dataDir, 'jwt-secret')]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /is not a Beatnik database/);
    assert.equal((await cli(server.dataDir, ['restore', '/nonexistent/file.db'])).code, 1);
  });
});

describe('backup and restore on PostgreSQL', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server?.stop(); });

  test('backup and restore name pg_dump and pg_restore, with the server, and change nothing', async () => {
    const file = path.join(server.dataDir, 'copy.db');
    const backup = await cli(server.dataDir, ['backup', file]);
    assert.equal(backup.code, 1);
    assert.match(backup.stderr, /the database is PostgreSQL \(127\.0\.0\.1:\d+\/beatnik_\w+\): back it up with pg_dump/);
    assert.ok(backup.stderr.includes(`and copy the images (${path.join(server.dataDir, 'uploads')}) with it (docs/scaling.md, Backup and restore)`),
      backup.stderr);
    assert.doesNotMatch(backup.stderr, /\n\s+at /, 'no stack');
    assert.equal(existsSync(file), false);
    const restore = await cli(server.dataDir, ['restore', file]);
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /restore a pg_dump file with pg_restore/);
  });

  test('with images on S3, backup names the bucket to back up beside the dump', async () => {
    const s3 = await startFakeS3();
    try {
      const backup = await runScript(ADMIN_BUNDLE, server.dataDir, ['backup', path.join(server.dataDir, 'copy.db')], undefined,
        { ...s3.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
      assert.equal(backup.code, 1);
      assert.ok(backup.stderr.includes(`and the images in the S3 bucket "${s3.bucket}" at ${s3.endpoint} with the store's own tools`),
        backup.stderr);
      assert.doesNotMatch(backup.stderr, /copy the images/);
    } finally {
      await s3.stop();
    }
  });
});

describe('stats and reset-password', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.stop(); });

  test('stats counts what is there', async () => {
    const author = await createUser(server);
    await createPost(server, author);
    await createPost(server, author);
    const run = await cli(server.dataDir, ['stats']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^users +1$/m);
    assert.match(run.stdout, /^articles +2$/m);
    assert.match(run.stdout, /^database +\d+\.\d MB/m);
  });

  test('reset-password: a generated password works, old tokens stop working', async () => {
    const user = await createUser(server);
    const run = await cli(server.dataDir, ['reset-password', user.username]);
    assert.equal(run.code, 0, run.stderr);
    const password = /New password for .*: (\S+)/.exec(run.stdout)?.[1];
    assert.ok(password && password.length >= 12);
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).status, 401);
    assert.equal((await apiCall(server.url, 'POST', '/api/auth/login', { json: { email: user.email, password: user.password } })).status, 401);
    assert.equal(typeof await loginAs(server, user.email, password), 'string');
  });

  test('reset-password --password-stdin, with its rules', async () => {
    const user = await createUser(server);
    const short = await cli(server.dataDir, ['reset-password', user.username, '--password-stdin'], '123\n');
    assert.equal(short.code, 2);
    const ok = await cli(server.dataDir, ['reset-password', user.username, '--password-stdin'], 'chosen-by-the-operator\n');
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(typeof await loginAs(server, user.email, 'chosen-by-the-operator'), 'string');
    assert.equal((await cli(server.dataDir, ['reset-password', 'nobody-here'])).code, 1);
    if (!onPostgres) assert.ok(existsSync(path.join(server.dataDir, 'beatnik.db')));
  });
});
