// Backups as archives (DESIGN.md, Running a community), on the database the suite runs on: the
// restore drill (a site, `backup --archive`, `restore` into an empty one, the same answers), the
// scheduled job with its retention and its copy in the S3 bucket, and the archives and targets a
// restore refuses.
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { backUpTo, lastBackupAt } from '../../server/backups/backups.service.ts';
import { startFakeS3, type FakeS3 } from '../fake-s3.ts';
import { apiCall, createUser, samplePng, startTestServer, type TestServer } from '../helpers.ts';
import { onPostgres } from '../postgres-databases.ts';
import { logSink } from '../log-sink.ts';
import { waitFor } from '../wait-for.ts';
import { createPost } from '../api/factories.ts';
import { cli, query, runScript, ADMIN_BUNDLE } from './cli-helpers.ts';

const ARCHIVE = /^beatnik-\d{8}-\d{6}\.tar\.gz$/;
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `beatnik-${name}-`));
  dirs.push(dir);
  return dir;
};
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

interface Site { authorId: number; readerId: number; postId: number; image: string }

/** Users, an article with an image, a comment, a rating and a follow, made through the API. */
async function fillSite(server: TestServer): Promise<Site> {
  const author = await createUser(server, { bio: 'Writes about jazz' });
  const reader = await createUser(server);
  const post = await createPost(server, author, { title: 'An article kept in the archive' }, await samplePng(320, 240));
  await createPost(server, reader, { title: 'A second article, without a picture' });
  assert.equal((await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'A comment to keep' } })).status, 201);
  assert.equal((await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 4 } })).status, 200);
  assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: reader.token })).status, 200);
  return { authorId: author.id, readerId: reader.id, postId: post.id, image: post.image };
}

/** What a visitor is answered about the site: users, articles with their counters, comments, follows, the image's bytes. */
async function answers(url: string, site: Site) {
  const get = async (p: string) => {
    const res = await apiCall(url, 'GET', p);
    assert.equal(res.status, 200, `${p}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // First: reading the article counts a visit (once per visitor), which moves its author's mojo.
  const post = await get(`/api/posts/${site.postId}`);
  const image = await fetch(url + site.image);
  assert.equal(image.status, 200);
  return {
    post,
    author: await get(`/api/users/${site.authorId}`),
    reader: await get(`/api/users/${site.readerId}`),
    posts: await get(`/api/users/${site.authorId}/posts`),
    readerPosts: await get(`/api/users/${site.readerId}/posts`),
    comments: await get(`/api/posts/${site.postId}/comments`),
    followers: await get(`/api/users/${site.authorId}/followers`),
    image: Buffer.from(await image.arrayBuffer()).toString('base64'),
  };
}

describe('the restore drill', () => {
  let server: TestServer;
  let site: Site;
  let archive: string;
  before(async () => {
    const first = await startTestServer();
    site = await fillSite(first);
    // Started again, as the restored site will be: its start-up ranking refresh brings the scores
    // up to date on both sides.
    await first.close();
    server = await startTestServer({ config: { dataDir: first.dataDir } });
    archive = path.join(tempDir('archives'), 'drill.tar.gz');
  });
  after(async () => { await server?.stop(); });

  test('backup --archive, restore into an empty site: it answers as before', async () => {
    // One picture under two names, as the seeder stores its pool: a hard link in DATA_DIR/uploads.
    const uploads = path.join(server.dataDir, 'uploads');
    linkSync(path.join(uploads, path.basename(site.image)), path.join(uploads, 'article-0123456789abcdef0123456789abcdef.jpg'));
    const before = await answers(server.url, site);
    const made = await cli(server.dataDir, ['backup', '--archive', archive]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, new RegExp(`^Backed up to ${archive} \\(\\d+\\.\\d MB: ${onPostgres ? 'postgres' : 'sqlite'} database, \\d+ rows in \\d+ tables, 2 images\\)$`, 'm'));
    assert.deepEqual(readdirSync(path.dirname(archive)), ['drill.tar.gz'], 'no staging folder or .partial left');
    // Recorded, for operators and /metrics.
    const [record] = await query(server.dataDir, 'SELECT archive, bytes, in_s3 FROM backups');
    assert.deepEqual(record, { archive: 'drill.tar.gz', bytes: statSync(archive).size, in_s3: 0 });
    assert.ok((await lastBackupAt(server.ctx))! <= new Date());

    const fresh = tempDir('restored');
    const restored = await cli(fresh, ['restore', archive]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored .* \((sqlite|postgres), made \d{4}-.*\) into /m);
    assert.match(restored.stdout, /^Checked: \d+ rows in \d+ tables as the manifest counts them; 2 images in /m);
    const again = await startTestServer({ config: { dataDir: fresh } });
    try {
      assert.deepEqual(await answers(again.url, site), before);
      const twin = await fetch(`${again.url}/uploads/article-0123456789abcdef0123456789abcdef.jpg`);
      assert.equal(Buffer.from(await twin.arrayBuffer()).toString('base64'), before.image);
      // The restored site writes on: ids go on past the archive's.
      const user = await createUser(again);
      assert.ok(user.id > site.readerId);
    } finally {
      await again.stop();
    }
  });

  test('restore refuses a target that holds data, in one line', async () => {
    const fresh = tempDir('twice');
    assert.equal((await cli(fresh, ['restore', archive])).code, 0);
    const twice = await cli(fresh, ['restore', archive]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /is not empty \(.*(has|have) rows\)/);
    assert.equal(twice.stderr.trim().split('\n').length, 1, twice.stderr);
  });

  test('restore refuses a truncated or foreign archive, in one line, and leaves the target empty', async () => {
    const broken = path.join(tempDir('broken'), 'broken.tar.gz');
    writeFileSync(broken, readFileSync(archive));
    truncateSync(broken, Math.floor(statSync(broken).size / 2));
    const fresh = tempDir('target');
    const run = await cli(fresh, ['restore', broken]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /broken\.tar\.gz is damaged or not a whole archive \(/);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    const foreign = path.join(path.dirname(broken), 'foreign.tar.gz');
    writeFileSync(foreign, Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5]));
    const other = await cli(fresh, ['restore', foreign]);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /foreign\.tar\.gz is damaged or not a whole archive/);
    // Nothing was restored: the whole archive still goes in.
    assert.equal((await cli(fresh, ['restore', archive])).code, 0);
  });
});

describe('archives across databases', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  test('a SQLite archive restores into an empty PostgreSQL database; a PostgreSQL one is refused without DATABASE_URL', async () => {
    const sqlite = await startTestServer({ config: { databaseUrl: null } });
    const archive = path.join(tempDir('across'), 'from-sqlite.tar.gz');
    let site: Site;
    let before;
    try {
      site = await fillSite(sqlite);
      await sqlite.close();
      const again = await startTestServer({ config: { dataDir: sqlite.dataDir, databaseUrl: null } });
      try {
        before = await answers(again.url, site);
        const made = await backUpTo(again.ctx, archive);
        assert.equal(made.manifest.dialect, 'sqlite');
      } finally {
        await again.close();
      }
    } finally {
      await sqlite.stop();
    }
    const fresh = tempDir('into-postgres');
    const restored = await cli(fresh, ['restore', archive]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored .* \(sqlite, made .*\) into PostgreSQL at /m);
    const onPg = await startTestServer({ config: { dataDir: fresh } });
    try {
      assert.deepEqual(await answers(onPg.url, site), before);
      const pgArchive = path.join(path.dirname(archive), 'from-postgres.tar.gz');
      assert.equal((await cli(fresh, ['backup', '--archive', pgArchive])).code, 0);
      const refused = await runScript(ADMIN_BUNDLE, tempDir('no-url'), ['restore', pgArchive], undefined, { DATABASE_URL: '' });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /from-postgres\.tar\.gz is a PostgreSQL archive: restore it with DATABASE_URL set to an empty PostgreSQL database\n$/);
    } finally {
      await onPg.stop();
    }
  });
});

describe('backups on a schedule', () => {
  test('a server queues the first backup BACKUP_HOURS after its start, once, and none with 0', async () => {
    const started = Date.now();
    const first = await startTestServer({ env: { BACKUP_HOURS: '24' } });
    const runs = () => query(first.dataDir, `SELECT run_at, state FROM jobs WHERE kind = 'backup'`);
    try {
      await waitFor(async () => (await runs()).length === 1, { what: 'the first run queued' });
      const [run] = await runs();
      assert.equal(run.state, 'pending');
      const due = Date.parse(run.run_at) - started;
      assert.ok(due >= 24 * 3_600_000 && due < 24 * 3_600_000 + 60_000, String(due));
      await first.close();
      const again = await startTestServer({ env: { BACKUP_HOURS: '24' }, config: { dataDir: first.dataDir } });
      await again.close();
      assert.deepEqual(await runs(), [run], 'a restart leaves the waiting run as it is');
    } finally {
      await first.stop();
    }
    const off = await startTestServer({ env: { BACKUP_HOURS: '0' } });
    try {
      assert.deepEqual(await query(off.dataDir, `SELECT id FROM jobs WHERE kind = 'backup'`), []);
    } finally {
      await off.stop();
    }
  });

  test('the backup job writes an archive, keeps the newest BACKUP_KEEP, and queues the next run', async () => {
    const dir = tempDir('scheduled');
    const old = ['beatnik-20200101-000000.tar.gz', 'beatnik-20200102-000000.tar.gz', 'beatnik-20200103-000000.tar.gz'];
    for (const name of old) writeFileSync(path.join(dir, name), 'an old archive');
    writeFileSync(path.join(dir, 'notes.txt'), 'not an archive: left alone');
    // A test's period: under BACKUP_HOURS' minimum, through the configuration itself.
    const token = 'metrics-'.repeat(5);
    const started = Date.now();
    const server = await startTestServer({ env: { METRICS_TOKEN: token }, config: { backup: { hours: 0.0005, dir, keep: 2 } }, jobs: { pollMs: 100 } });
    try {
      const archives = () => readdirSync(dir).filter((name) => ARCHIVE.test(name)).sort();
      await waitFor(async () => (await query(server.dataDir, 'SELECT id FROM backups')).length >= 1 && archives().length === 2,
        { what: 'the first scheduled archive and its retention', timeout: 30_000 });
      const [newest, kept] = [archives().at(-1)!, archives()[0]!];
      assert.equal(kept, old[2], 'the newest older archive is kept, the two before it deleted');
      assert.ok(newest > old[2]!);
      assert.ok(readdirSync(dir).includes('notes.txt'));
      // /metrics tells when the last one finished.
      const scraped = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      const seconds = Number(/^beatnik_last_backup_timestamp_seconds (\S+)$/m.exec(scraped)?.[1]);
      assert.ok(seconds * 1000 >= started && seconds * 1000 <= Date.now(), scraped.slice(0, 200));
      // The next run was queued by this one, and runs.
      await waitFor(async () => (await query(server.dataDir, 'SELECT id FROM backups')).length >= 2,
        { what: 'the next scheduled run', timeout: 30_000 });
      await waitFor(() => archives().length === 2 && !archives().includes(old[2]!), { what: 'retention on the second run' });
      const pending = await query(server.dataDir, `SELECT state FROM jobs WHERE kind = 'backup'`);
      assert.equal(pending.length, 1, 'one run waits at a time');
    } finally {
      await server.stop();
    }
  });

  test('a backup that fails is logged with its reason and tried again by the runner', async () => {
    const dir = path.join(tempDir('failing'), 'backups');
    writeFileSync(dir, 'a file where the folder should be');
    const sink = logSink();
    const server = await startTestServer({
      env: { LOG_LEVEL: 'warn' }, logTo: sink.stream, config: { backup: { hours: 0.0005, dir, keep: 2 } },
      jobs: { pollMs: 100, retry: { firstDelayMs: 200, maxDelayMs: 400, giveUpAfterMs: 60_000 } },
    });
    try {
      const failed = () => sink.lines.find((line) => line.kind === 'backup' && line.msg === 'background job failed; will retry');
      await waitFor(() => failed() !== undefined, { what: 'the failure logged', timeout: 30_000 });
      assert.match(String(failed()!.error), /^backup failed: .*EEXIST/);
      assert.equal((await query(server.dataDir, 'SELECT id FROM backups')).length, 0);
      rmSync(dir);
      await waitFor(async () => (await query(server.dataDir, 'SELECT id FROM backups')).length === 1, { what: 'the retry', timeout: 30_000 });
      assert.equal(readdirSync(dir).filter((name) => ARCHIVE.test(name)).length, 1);
    } finally {
      await server.stop();
    }
  });

  test('with S3 on, each archive is copied to the bucket under backups/, which keeps BACKUP_KEEP too; it restores into another bucket', async () => {
    const s3 = await startFakeS3();
    const target = await startFakeS3('restored-images');
    const dir = tempDir('s3-scheduled');
    try {
      await s3.write('backups/beatnik-20200101-000000.tar.gz', Buffer.from('old'));
      await s3.write('backups/beatnik-20200102-000000.tar.gz', Buffer.from('old'));
      const server = await startTestServer({ env: s3.env, config: { backup: { hours: 0.001, dir, keep: 2 } }, jobs: { pollMs: 100 } });
      let site: Site;
      let before: Awaited<ReturnType<typeof answers>>;
      let archive: string;
      try {
        site = await fillSite(server);
        before = await answers(server.url, site);
        const row = async () => (await query(server.dataDir, 'SELECT archive, in_s3 FROM backups ORDER BY id'))[0];
        await waitFor(async () => (await row())?.in_s3 === 1, { what: 'an archive in the bucket', timeout: 30_000 });
        const name = (await row()).archive as string;
        archive = path.join(dir, name);
        await waitFor(async () => (await s3.keys()).filter((k) => k.startsWith('backups/')).length === 2, { what: 'retention in the bucket' });
        const keys = (await s3.keys()).filter((k) => k.startsWith('backups/'));
        assert.deepEqual(keys, ['backups/beatnik-20200102-000000.tar.gz', `backups/${name}`]);
        assert.deepEqual(await s3.read(`backups/${name}`), readFileSync(archive));
        // The bucket's images are unchanged by it: backups/ is not an image.
        assert.deepEqual((await server.api('GET', '/api/posts/' + site.postId)).status, 200);
      } finally {
        await server.stop();
      }
      const fresh = tempDir('s3-restored');
      const restored = await runScript(ADMIN_BUNDLE, fresh, ['restore', archive], undefined,
        { ...target.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
      assert.equal(restored.code, 0, restored.stderr);
      assert.ok((await target.keys()).includes(path.basename(site.image)));
      const again = await startTestServer({ env: target.env, config: { dataDir: fresh } });
      try {
        // The scores this server's start-up refresh recomputed aside, the same answers.
        const unscored = (answer: unknown) => JSON.parse(JSON.stringify(answer, (key, value) => (key === 'bayesian_rating' ? undefined : value)));
        assert.deepEqual(unscored(await answers(again.url, site)), unscored(before!));
      } finally {
        await again.stop();
      }
    } finally {
      await Promise.all([s3.stop(), target.stop()]);
    }
  });
});
