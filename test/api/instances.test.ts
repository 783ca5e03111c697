// Several instances on one PostgreSQL database, as behind a load balancer (docs/scaling.md,
// Several instances): two servers with their own data directories on one database and one
// JWT_SECRET. One runs the periodic jobs and another takes over when it goes; a write on one shows
// in the other's cached lists within a second; throttles and visits count across both.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { LEADER_SESSION } from '../../server/postgres/postgres.leader.ts';
import { LISTENER_SESSION } from '../../server/postgres/postgres.channel.ts';
import { pruneCounters } from '../../server/postgres/postgres.counters.ts';
import { createSeasonedUser, createUser, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createTestDatabase, dropTestDatabase, onPostgres, testPostgresBase } from '../postgres-databases.ts';
import { waitFor } from '../wait-for.ts';
import { createPost } from './factories.ts';
import { apiFrom } from './from-address.ts';
import { pageTemplateDir } from './html.ts';

const skip = onPostgres ? false : 'several instances share a PostgreSQL database: run under npm run test:pg';

interface Instance extends TestServer {
  /** The messages it logged, in order. */
  messages: string[];
}

interface Cluster {
  a: Instance;
  b: Instance;
  stop(): Promise<void>;
}

/** Two servers on one new database, A started first; each one's log messages are kept. Both
 * render the public pages into `client/index.html` (test/api/html.ts). */
async function startTwo(env: Record<string, string> = {}): Promise<Cluster> {
  const clientDir = pageTemplateDir();
  const databaseUrl = await createTestDatabase(testPostgresBase()!);
  const jwtSecret = randomBytes(32).toString('hex');
  const start = async (): Promise<Instance> => {
    const messages: string[] = [];
    const logTo = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) messages.push(JSON.parse(line).msg);
        done();
      },
    });
    const server = await startTestServer({ config: { databaseUrl, jwtSecret }, env: { LOG_LEVEL: 'info', ...env }, logTo, clientDir });
    return Object.assign(server, { messages });
  };
  const a = await start();
  const b = await start();
  return {
    a, b,
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await dropTestDatabase(databaseUrl);
      rmSync(clientDir, { recursive: true, force: true });
    },
  };
}

/** The advisory locks held in this database (other test files' databases share the cluster). */
const HELD_LOCKS = `FROM pg_locks WHERE locktype = 'advisory' AND granted
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

const count = (instance: Instance, message: string) => instance.messages.filter((m) => m === message).length;

/** Whether the instance runs the periodic jobs now, by what it said last about them. */
const leads = (instance: Instance) =>
  count(instance, 'leading the periodic jobs') > count(instance, 'no longer leading the periodic jobs');

describe('the periodic jobs run on one instance at a time', { skip }, () => {
  let cluster: Cluster;
  before(async () => { cluster = await startTwo(); });
  after(async () => { await cluster?.stop(); });

  test('the first instance up refreshes the rankings; the second leaves it to the first', async () => {
    const { a, b } = cluster;
    assert.ok(leads(a) && !leads(b));
    await waitFor(() => count(a, 'rankings refreshed') === 1, { what: 'A to refresh the rankings' });
    assert.equal(count(b, 'rankings refreshed'), 0);
    assert.equal(count(b, 'another instance leads the periodic jobs; this one takes over if it stops'), 1);
  });

  test('when the leader stops, the other takes over within a few seconds and refreshes', async (t) => {
    const { a, b } = cluster;
    const stopped = performance.now();
    await a.close();
    await waitFor(() => count(b, 'rankings refreshed') === 1, { what: 'B to refresh the rankings', timeout: 10_000 });
    t.diagnostic(`taken over in ${Math.round(performance.now() - stopped)} ms`);
    assert.ok(leads(b));
  });
});

describe('a leader whose connection is cut', { skip }, () => {
  let cluster: Cluster;
  before(async () => { cluster = await startTwo(); });
  after(async () => { await cluster?.stop(); });

  test('stops its jobs, and exactly one instance leads again', async (t) => {
    const { a, b } = cluster;
    const db = a.ctx.db;
    // The session holding the advisory lock is A's: only the leader's session holds one.
    const [holder] = await sqlRows<{ pid: number }>(db, `SELECT pid ${HELD_LOCKS}`);
    assert.ok(holder);
    const cut = performance.now();
    await sqlRows(db, 'SELECT pg_terminate_backend(?)', holder.pid);
    await waitFor(() => count(a, 'no longer leading the periodic jobs') === 1, { what: 'A to resign' });
    await waitFor(async () => await sqlNumber(db, `SELECT count(*) ${HELD_LOCKS}`) === 1
      && Number(leads(a)) + Number(leads(b)) === 1, { what: 'a new leader', timeout: 10_000 });
    t.diagnostic(`a new leader in ${Math.round(performance.now() - cut)} ms`);
    const [leader] = await sqlRows<{ application_name: string }>(db, `SELECT application_name FROM pg_stat_activity
      WHERE pid = (SELECT pid ${HELD_LOCKS})`);
    assert.equal(leader?.application_name, LEADER_SESSION);
  });
});

describe('two instances behind a load balancer', { skip }, () => {
  let cluster: Cluster;
  let author: TestUser;
  before(async () => {
    cluster = await startTwo({ RATE_LIMITS: 'on', TRUSTED_PROXY: 'loopback' });
    // Past the brakes on new accounts: this author publishes more than a new one may in an hour.
    author = await createSeasonedUser(cluster.a);
  });
  after(async () => { await cluster?.stop(); });

  const titles = async (server: TestServer, url: string) =>
    (await server.api('GET', url)).body.posts.map((p: any) => p.title) as string[];

  /** How long until B's answer at `url` names `title`; fails after a second. */
  async function shownOnB(url: string, title: string): Promise<number> {
    const started = performance.now();
    await waitFor(async () => (await titles(cluster.b, url)).includes(title), { what: `${title} on B's ${url}`, timeout: 1_000 });
    return Math.round(performance.now() - started);
  }

  test('a post published on A shows in B\'s cached lists within a second', async (t) => {
    const { a, b } = cluster;
    const old = await createPost(a, author, { title: 'Yesterday on the front page' });
    // B serves its lists from its cache: a change behind the servers' backs does not show, once
    // the invalidations of that publication have all reached B. Each try reads a list of its own.
    let tries = 0;
    await waitFor(async () => {
      const url = `/api/posts?limit=${30 + tries++}`;
      await titles(b, url);
      await sqlRows(b.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', 'Retitled behind the servers\' backs', old.id);
      if ((await titles(b, url)).includes(old.title)) return true;
      await sqlRows(b.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', old.title, old.id);
      return false;
    }, { what: 'B to serve a list from its cache' });
    for (const url of ['/api/posts', '/api/frontpage']) await titles(b, url);

    await createPost(a, author, { title: 'Breaking news written on A' });
    t.diagnostic(`shown on B's /api/posts after ${await shownOnB('/api/posts', 'Breaking news written on A')} ms`);
    t.diagnostic(`and on B's /api/frontpage after ${await shownOnB('/api/frontpage', 'Breaking news written on A')} ms`);
    assert.ok((await titles(b, `/api/posts?limit=${30 + tries - 1}`)).includes('Retitled behind the servers\' backs'), 'the whole cache went');
  });

  test('a post published on A shows in B\'s cached feeds and sitemap within a second', async () => {
    const { a, b } = cluster;
    const old = await createPost(a, author, { title: 'Yesterday in every feed reader' });
    const feedTitles = async () => ((await b.api('GET', '/feed.json')).body.items as any[]).map((i) => i.title as string);
    // B serves its feed from its cache once the invalidations of that publication have reached it:
    // a title changed behind the servers' backs then does not show. Each try changes it anew, so
    // a copy cached with an earlier try's title cannot pass for this one's.
    let retitled = '';
    await waitFor(async () => {
      retitled = `Retitled behind the feeds' backs, try ${performance.now()}`;
      await feedTitles();
      await sqlRows(b.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', retitled, old.id);
      return !(await feedTitles()).includes(retitled);
    }, { what: 'B to serve its feed from its cache' });
    await b.api('GET', '/sitemap.xml');

    const post = await createPost(a, author, { title: 'Syndicated on A, read on B' });
    await waitFor(async () => (await feedTitles())[0] === post.title, { what: 'the post in B\'s feed', timeout: 1_000 });
    assert.ok((await feedTitles()).includes(retitled), 'the whole feed was made again');
    await waitFor(async () => String((await b.api('GET', '/sitemap.xml')).body).includes(`/post/${post.id}</loc>`),
      { what: 'the post in B\'s sitemap', timeout: 1_000 });
  });

  test("a comment written on A shows in B's cached page of the article within a second", async (t) => {
    const { a, b } = cluster;
    // A writer of its own: the page counts visits, which the test below counts for `author`.
    const writer = await createUser(a);
    const post = await createPost(a, writer, { title: 'The page B keeps in its cache' });
    const page = async () => (await fetch(`${b.url}/post/${post.id}`)).text();
    // As above: B answers from its cache once the publication's invalidations have reached it.
    // Each try retitles anew: a copy B cached with an earlier try's title cannot pass for this one's
    // (putting a title back behind B's back would leave B's copy of it in place, and every try fail).
    let retitled = '';
    await waitFor(async () => {
      await page();
      retitled = `Retitled behind both servers, try ${Math.round(performance.now() * 1000)}`;
      await sqlRows(b.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', retitled, post.id);
      return !(await page()).includes(retitled);
    }, { what: "B to serve the article's page from its cache" });

    assert.equal((await a.api('POST', `/api/posts/${post.id}/comments`, { token: writer.token, json: { content: 'Written on A.' } })).status, 201);
    const started = performance.now();
    await waitFor(async () => {
      const html = await page();
      return html.includes('Written on A.') && html.includes(retitled);
    }, { what: "the comment on B's page", timeout: 1_000 });
    t.diagnostic(`shown on B's page after ${Math.round(performance.now() - started)} ms`);
  });

  test('while B cannot listen it reads lists fresh, and once it listens again it caches and hears again', async () => {
    const { a, b } = cluster;
    const post = await createPost(a, author, { title: 'Before the connection was cut' });
    await titles(b, '/api/posts');
    const lost = count(b, 'cache invalidations from other instances unheard: lists bypass the cache until listening again');
    await sqlRows(a.ctx.db, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE application_name = ? AND datname = current_database()`, LISTENER_SESSION);
    await waitFor(() => count(b, 'cache invalidations from other instances unheard: lists bypass the cache until listening again') > lost,
      { what: 'B to notice' });
    await sqlRows(b.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', 'Changed while B was deaf', post.id);
    assert.ok((await titles(b, '/api/posts')).includes('Changed while B was deaf'), 'no stale list while B cannot listen');

    await waitFor(() => count(b, 'listening again for cache invalidations from other instances') > 0, { what: 'B to listen again' });
    await titles(b, '/api/posts');
    await sqlRows(b.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', 'Changed behind B\'s back', post.id);
    assert.ok((await titles(b, '/api/posts')).includes('Changed while B was deaf'), 'B caches again');
    await createPost(a, author, { title: 'Written on A after B came back' });
    await shownOnB('/api/posts', 'Written on A after B came back');
  });

  test('login attempts on A and B count together', async () => {
    const { a, b } = cluster;
    const owner = await createUser(a);
    const loginOn = (server: TestServer, address: string, email: string, password: string) =>
      apiFrom(address, server.url, 'POST', '/api/auth/login', { json: { email, password } });
    // Five wrong passwords from one address, alternately on A and B: the sixth try waits.
    for (let i = 0; i < 5; i += 1) {
      assert.equal((await loginOn(i % 2 ? b : a, '127.0.0.2', owner.email, `guess-${i}`)).status, 401);
    }
    const held = await loginOn(b, '127.0.0.2', owner.email, owner.password);
    assert.equal(held.status, 429);
    assert.match(held.body.detail, /^Too many attempts\. Try again in \d seconds\.$/);
    assert.equal((await loginOn(a, '127.0.0.2', owner.email, owner.password)).status, 429, 'on A too');
    assert.equal((await loginOn(b, '127.0.0.3', owner.email, owner.password)).status, 200, 'the owner, elsewhere, gets in');

    // One address gets 25 failures in 5 minutes, wherever they land.
    for (let i = 0; i < 25; i += 1) {
      assert.equal((await loginOn(i % 2 ? a : b, '127.0.0.4', `nobody${i}@example.com`, 'wrong-password')).status, 401);
    }
    const refused = await loginOn(a, '127.0.0.4', 'nobody25@example.com', 'wrong-password');
    assert.equal(refused.status, 429);
    assert.match(refused.body.detail, /^Too many attempts\. Try again in 5 minutes\.$/);
  });

  test('the counts are kept in the database, a long client address as a short key', async () => {
    const { a } = cluster;
    const forged = `203.0.113.7, ${'9'.repeat(5_000)}`; // what a client behind the proxy may send
    const res = await apiFrom('127.0.0.9', a.url, 'POST', '/api/auth/login', {
      json: { email: 'nobody@example.com', password: 'wrong-password' }, headers: { 'x-forwarded-for': forged },
    });
    assert.equal(res.status, 401);
    const keys = (await sqlRows<{ key: string }>(a.ctx.db, 'SELECT key FROM rate_limits')).map((row) => row.key);
    for (const name of ['login_ip', 'login_account', 'login_pair', 'login_pair_last', 'register']) {
      assert.ok(keys.some((key) => key.startsWith(`${name}:`)), `${name} in ${keys.length} keys`);
    }
    assert.ok(keys.every((key) => key.length < 100), 'no long key');
    assert.ok(keys.every((key) => !key.includes('@')), 'no address of an account');
  });

  test('counters whose window has ended are pruned (the leader\'s job)', async () => {
    const { a } = cluster;
    await sqlRows(a.ctx.db, 'INSERT INTO rate_limits (key, points, expire) VALUES (?, 1, ?), (?, 1, ?)',
      'pruned:ended', Date.now() - 1, 'pruned:running', Date.now() + 60_000);
    assert.ok(await pruneCounters(a.ctx.db) >= 1);
    const left = await sqlRows<{ key: string }>(a.ctx.db, `SELECT key FROM rate_limits WHERE key LIKE 'pruned:%'`);
    assert.deepEqual(left.map((row) => row.key), ['pruned:running']);
  });

  test('registrations on A and B count together', async () => {
    const { a, b } = cluster;
    for (let i = 0; i < 20; i += 1) {
      const res = await apiFrom('127.0.0.5', (i % 2 ? a : b).url, 'POST', '/api/auth/register', {
        json: { username: `joiner${process.pid}x${i}`, email: `joiner${process.pid}x${i}@example.com`, password: 'secret1' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const limited = await apiFrom('127.0.0.5', a.url, 'POST', '/api/auth/register', {
      json: { username: `joiner${process.pid}x20`, email: `joiner${process.pid}x20@example.com`, password: 'secret1' },
    });
    assert.equal(limited.status, 429);
  });

  test('a visit counted on A is not counted again on B', async () => {
    const { a, b } = cluster;
    const post = await createPost(a, author);
    const reader = await createUser(a);
    const read = (server: TestServer, address: string, token?: string) =>
      apiFrom(address, server.url, 'GET', `/api/posts/${post.id}`, { token });
    assert.equal((await read(a, '127.0.0.6')).body.visits, 1, 'an anonymous reader on A');
    assert.equal((await read(b, '127.0.0.6')).body.visits, 1, 'the same reader on B');
    assert.equal((await read(b, '127.0.0.7', reader.token)).body.visits, 2, 'a signed-in reader on B');
    assert.equal((await read(a, '127.0.0.8', reader.token)).body.visits, 2, 'the same one on A, from elsewhere');
    assert.equal(await sqlNumber(a.ctx.db, 'SELECT visits FROM posts WHERE id = ?', post.id), 2);
    assert.equal(await sqlNumber(a.ctx.db, 'SELECT received_visits FROM users WHERE id = ?', author.id), 2);
  });

  test("a visit counted on A shows in B's cached article and mojo ledger within a second", async () => {
    const { a, b } = cluster;
    const post = await createPost(a, author);
    const onB = () => apiFrom('127.0.0.9', b.url, 'GET', `/api/posts/${post.id}`);
    assert.equal((await onB()).body.visits, 1, 'counted on B');
    assert.equal((await onB()).body.visits, 1, 'kept in B\'s cache');
    const ledgerOnB = async () => (await b.api('GET', `/api/users/${author.id}/mojo`)).body;
    const before = await ledgerOnB();
    assert.equal(await sqlNumber(a.ctx.db, 'SELECT count(*) FROM mojo_events WHERE user_id = ?', author.id), before.total);
    const reader = await createUser(a);
    assert.equal((await a.api('GET', `/api/posts/${post.id}`, { token: reader.token })).body.visits, 2, 'counted on A');
    // Within B's time to live (5 s): only A's word can have emptied it.
    await waitFor(async () => (await onB()).body.visits === 2, { what: "the visit in B's article", timeout: 1_000 });
    const events = await sqlNumber(a.ctx.db, 'SELECT count(*) FROM mojo_events WHERE user_id = ?', author.id);
    const mojo = await sqlNumber(a.ctx.db, 'SELECT mojo FROM users WHERE id = ?', author.id);
    await waitFor(async () => {
      const now = await ledgerOnB();
      return now.total === events && now.mojo === mojo;
    }, { what: "the visit in B's mojo ledger", timeout: 1_000 });
  });
});
