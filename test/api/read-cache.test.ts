// Public lists are served from a cache that every write in the process invalidates.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { get, request } from 'node:http';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { content as seededContent, seededRandom } from '../../scripts/seed/corpus.ts';
import { createUser, withTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let author: TestUser;
let reader: TestUser;

withTestServer(async (started) => {
  server = started;
  author = await createUser(server);
  reader = await createUser(server);
});

/** A change made behind the server's back (as another process would) shows when the cache misses. */
async function retitleInDatabase(id: number, title: string): Promise<void> {
  await server.ctx.db.updateTable('posts').set({ title }).where('id', '=', id).execute();
}

const titleIn = async (url: string, id: number) =>
  (await server.api('GET', url)).body.posts.find((p: any) => p.id === id)?.title;

const visitsIn = async (url: string, id: number) =>
  (await server.api('GET', url)).body.posts.find((p: any) => p.id === id)?.visits;

test('a repeated list read is served from the cache', async () => {
  const post = await createPost(server, author, { title: 'The original headline of this piece' });
  assert.equal(await titleIn('/api/posts', post.id), 'The original headline of this piece');
  await retitleInDatabase(post.id, 'Changed behind the server back');
  assert.equal(await titleIn('/api/posts', post.id), 'The original headline of this piece', 'cached');
  assert.equal(await titleIn('/api/posts?limit=19', post.id), 'Changed behind the server back', 'another URL is another entry');
});

test('any successful write through the API invalidates every cached list', async () => {
  const post = await createPost(server, author, { title: 'Another original headline here' });
  assert.equal(await titleIn('/api/ranks', post.id), 'Another original headline here');
  await retitleInDatabase(post.id, 'Retitled while the list was cached');
  assert.equal(await titleIn('/api/ranks', post.id), 'Another original headline here');
  const comment = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'hello' } });
  assert.equal(comment.status, 201);
  assert.equal(await titleIn('/api/ranks', post.id), 'Retitled while the list was cached');
});

test('a counted visit leaves the cached lists alone; they catch up within the time to live', async (t) => {
  const post = await createPost(server, author, { title: 'A headline for the visits test' });
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  assert.equal(await visitsIn('/api/posts', post.id), 0);
  const read = await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
  assert.equal(read.body.visits, 1, 'the article itself shows the visit at once');
  assert.equal(await visitsIn('/api/posts', post.id), 0, 'the list is still the cached one');
  t.mock.timers.tick(5_001);
  assert.equal(await visitsIn('/api/posts', post.id), 1);
});

test('an article\'s rank is kept per address until a write or a refresh', async () => {
  const post = await createPost(server, author, { title: 'A headline to be ranked on The Pulse' });
  await recomputeRanks(server.ctx.db);
  server.ctx.readCache!.invalidate(); // as the scheduler's refresh does
  const rankOf = async (url = `/api/posts/${post.id}/rank`) => (await server.api('GET', url)).body.score;
  const score = await rankOf();
  assert.equal(typeof score, 'number');
  const moveBehindTheServersBack = () => server.ctx.db.updateTable('post_ranks').set({ score: 12345 }).where('post_id', '=', post.id).execute();
  await server.ctx.db.updateTable('post_rank_order').set({ score: 12345 }).where('post_id', '=', post.id).execute();
  await moveBehindTheServersBack();
  assert.equal(await rankOf(), score, 'cached');
  assert.equal(await rankOf(`/api/posts/${post.id}/rank?utm_source=feed`), score, 'a query changes nothing: the same entry');
  const rated = await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 4 } });
  assert.equal(rated.status, 200);
  assert.equal(await rankOf(), 12345, 'a write empties it');
});

test("an article's read is kept until a write or a counted visit of it; a reader's own rating stays theirs", async () => {
  const post = await createPost(server, author, { title: 'A headline read by many readers' });
  const anonymous = () => server.api('GET', `/api/posts/${post.id}`);
  assert.equal((await anonymous()).body.visits, 1, "this address's visit, which forgets what was kept");
  assert.equal((await anonymous()).body.visits, 1, 'read again, and kept');
  await retitleInDatabase(post.id, 'Retitled while the article was cached');
  const again = await anonymous();
  assert.equal(again.body.title, 'A headline read by many readers', 'cached');
  assert.equal(again.body.visits, 1);
  assert.equal('user_rating' in again.body, false);
  const rated = await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 2 } });
  assert.equal(rated.status, 200);
  await retitleInDatabase(post.id, 'A headline read by many readers');
  const mine = await server.api('GET', `/api/posts/${post.id}`, { token: reader.token }); // counts a visit
  assert.equal(mine.body.user_rating, 2);
  assert.equal(mine.body.visits, 2);
  assert.deepEqual(mine.body.rating_histogram, [0, 1, 0, 0, 0]);
  assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: reader.token })).body.user_rating, 2, 'read again, and kept');
  await retitleInDatabase(post.id, 'Retitled once more behind its back');
  const theirs = await server.api('GET', `/api/posts/${post.id}`, { token: author.token }); // the author's read counts none
  assert.equal(theirs.body.title, 'A headline read by many readers', 'cached again');
  assert.equal(theirs.body.user_rating, 0, "the author's own rating, not the last reader's");
  assert.equal(theirs.body.visits, 2);
  const stranger = await createUser(server);
  assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: stranger.token })).body.visits, 3);
  assert.equal((await anonymous()).body.title, 'Retitled once more behind its back');
});

test("an author's mojo ledger is kept until a write or a visit counted for them", async () => {
  const post = await createPost(server, author, { title: 'A headline that earns its author mojo' });
  const ledgerOf = async () => (await server.api('GET', `/api/users/${author.id}/mojo?limit=5`)).body;
  const before = await ledgerOf();
  await server.ctx.db.updateTable('users').set({ mojo: 777 }).where('id', '=', author.id).execute();
  assert.deepEqual(await ledgerOf(), before, 'cached');
  const visitor = await createUser(server);
  assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: visitor.token })).body.visits, 1);
  const after = await ledgerOf();
  assert.equal(after.total, Number((await server.ctx.db.selectFrom('mojo_events').select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', author.id).executeTakeFirstOrThrow()).n));
  assert.notEqual(after.mojo, before.mojo, 'read afresh after the visit');
});

test('unknown or reordered query parameters share the cached answer', async () => {
  await createPost(server, author);
  const first = await server.api('GET', '/api/posts?limit=5&skip=0');
  const size = server.ctx.readCache!.size;
  for (const url of ['/api/posts?skip=0&limit=5', '/api/posts?limit=5&skip=0&x=random1', '/api/posts?x=random2&limit=5&skip=0']) {
    const res = await server.api('GET', url);
    assert.equal(res.headers.get('etag'), first.headers.get('etag'), url);
  }
  assert.equal(server.ctx.readCache!.size, size, 'no new entries');
  const other = await server.api('GET', '/api/posts?limit=4&skip=0');
  assert.equal(other.body.posts.length <= 4, true);
  assert.equal(server.ctx.readCache!.size, size + 1, 'a known parameter makes its own entry');
});

test('entries expire after their time to live', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  await createPost(server, author, { hashtags: ['jazz'] });
  const first = (await server.api('GET', '/api/hashtags')).body;
  await server.ctx.db.updateTable('hashtags').set({ posts_count: 999 }).where('tag', '=', 'jazz').execute();
  assert.deepEqual((await server.api('GET', '/api/hashtags')).body, first, 'cached');
  t.mock.timers.tick(5_001);
  const later = (await server.api('GET', '/api/hashtags')).body;
  assert.equal(later.find((h: any) => h.hashtag === 'jazz').count, 999);
});

test('a cached list keeps its ETag: a revalidation answers 304, new content a new tag', async () => {
  await createPost(server, author, { title: 'A headline for the revalidation test' });
  const first = await fetch(`${server.url}/api/hashtags`);
  const etag = first.headers.get('etag');
  assert.match(etag ?? '', /^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
  const hit = await fetch(`${server.url}/api/hashtags`);
  assert.equal(hit.headers.get('etag'), etag, 'the cached copy answers with the same tag');
  // As a browser revalidates (fetch() would otherwise add "Cache-Control: no-cache").
  const revalidate = { 'if-none-match': etag!, 'cache-control': 'max-age=0' };
  assert.equal((await fetch(`${server.url}/api/hashtags`, { headers: revalidate })).status, 304);
  await createPost(server, author, { title: 'Another headline, another tag', hashtags: ['revalidated'] });
  const changed = await fetch(`${server.url}/api/hashtags`, { headers: revalidate });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get('etag'), etag);
});

/** A GET as bytes on the wire (fetch would decompress behind our back). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('a cached list over 1 KB goes out as br or gzip per Accept-Encoding, the same JSON and ETag', async () => {
  for (let i = 0; i < 6; i += 1) await createPost(server, author, { hashtags: ['compressed'] });
  const url = `${server.url}/api/ranks?hashtag=compressed`;
  const plain = await rawGet(url, { 'accept-encoding': 'identity' });
  assert.ok(plain.body.length > 1024, `${plain.body.length} bytes`);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  const json = JSON.parse(plain.body.toString());
  assert.equal(json.posts.length, 6);
  const noHeader = await rawGet(url, {}); // as autocannon and curl ask: no Accept-Encoding at all
  assert.equal(noHeader.headers['content-encoding'], undefined);
  assert.equal(noHeader.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(noHeader.headers.etag, plain.headers.etag);
  assert.deepEqual(noHeader.body, plain.body);

  const cases: Array<[string, string, (b: Buffer) => Buffer]> = [
    ['gzip, deflate, br', 'br', brotliDecompressSync], ['br;q=0.5, gzip', 'gzip', gunzipSync],
    ['gzip', 'gzip', gunzipSync], ['*', 'br', brotliDecompressSync],
  ];
  for (const [accept, encoding, decode] of cases) {
    for (const round of ['miss or hit', 'hit']) {
      const res = await rawGet(url, { 'accept-encoding': accept });
      assert.equal(res.headers['content-encoding'], encoding, `${accept} (${round})`);
      assert.equal(res.headers.vary, 'Accept-Encoding');
      assert.equal(res.headers.etag, plain.headers.etag, 'one entity, one weak ETag');
      assert.ok(res.body.length < plain.body.length / 3);
      assert.deepEqual(JSON.parse(decode(res.body).toString()), json);
    }
  }
  const revalidated = await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) });
  assert.equal(revalidated.status, 304);
  assert.equal(revalidated.body.length, 0);
});

/** Express's own weak ETag for a body (its `etag` setting, "weak"). */
const expressEtag = (body: Buffer) =>
  `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;

test('an article read without a token goes out as Express would send it, counted or not', async () => {
  const rnd = seededRandom(5);
  const post = await createPost(server, author, { content: `${seededContent(rnd)}\n\n${seededContent(rnd)}` });
  const url = `${server.url}/api/posts/${post.id}`;
  const counted = await rawGet(url, { 'accept-encoding': 'identity' });
  assert.equal(counted.status, 200);
  assert.equal(JSON.parse(counted.body.toString()).visits, 1, 'the first read counts a visit');
  assert.ok(counted.body.length > 1024, `${counted.body.length} bytes`);
  assert.equal(counted.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(counted.headers['content-length'], String(counted.body.length));
  assert.equal(counted.headers.etag, expressEtag(counted.body));
  assert.equal(counted.headers.vary, 'Accept-Encoding');
  assert.ok(counted.headers['x-content-type-options'], 'the security headers');

  const reread = await rawGet(url, { 'accept-encoding': 'gzip' });
  assert.equal(reread.headers['content-encoding'], 'gzip');
  assert.equal(reread.headers['content-length'], String(reread.body.length));
  assert.deepEqual(gunzipSync(reread.body), counted.body, 'the same visit, the same answer');
  assert.equal(reread.headers.etag, counted.headers.etag);
  const revalidated = await rawGet(url, { 'if-none-match': String(counted.headers.etag) });
  assert.equal(revalidated.status, 304);
  assert.equal(revalidated.body.length, 0);

  const head = await new Promise<{ status: number; length: unknown; body: number }>((resolve, reject) => {
    request(url, { method: 'HEAD' }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], body: bytes }));
    }).on('error', reject).end();
  });
  assert.deepEqual(head, { status: 200, length: String(counted.body.length), body: 0 });
});

test('a cached body is compressed quickly the first time it is asked for, better the second, and kept', async () => {
  // Varied text, as articles are: a line repeated twenty times compressed to a few hundred bytes
  // whatever the level, and Node 24's zlib then made level 1 and level 6 the same size.
  const rnd = seededRandom(27);
  for (let i = 0; i < 6; i += 1) await createPost(server, author, { hashtags: ['recompressed'], content: seededContent(rnd) });
  const url = `${server.url}/api/ranks?hashtag=recompressed`;
  const plain = await rawGet(url, { 'accept-encoding': 'identity' });
  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    const [first, second, third] = [
      await rawGet(url, { 'accept-encoding': encoding }), await rawGet(url, { 'accept-encoding': encoding }),
      await rawGet(url, { 'accept-encoding': encoding }),
    ];
    for (const res of [first, second, third]) assert.deepEqual(decode(res.body), plain.body, encoding);
    assert.ok(second.body.length < first.body.length, `${encoding}: ${first.body.length} then ${second.body.length} bytes`);
    assert.deepEqual(third.body, second.body, `${encoding}: the better copy is kept`);
  }
});

test('a small cached list is sent as it is', async () => {
  const res = await rawGet(`${server.url}/api/ranks?hashtag=nothing-tagged-so`, { 'accept-encoding': 'br, gzip' });
  assert.equal(res.status, 200);
  assert.ok(res.body.length < 1024);
  assert.equal(res.headers['content-encoding'], undefined);
  assert.deepEqual(JSON.parse(res.body.toString()).posts, []);
});
