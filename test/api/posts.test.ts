import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { createUser, letVisitsCountAgain, multipart, samplePng, startTestServer, withTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';

let server: TestServer;
let author: TestUser;
let reader: TestUser;

withTestServer(async (started) => {
  server = started;
  author = await createUser(server);
  reader = await createUser(server);
});

const uploadPath = (url: string) => path.join(server.dataDir, 'uploads', path.basename(url));

describe('publishing', () => {
  test('POST /api/posts stores the article with normalised hashtags and a grayscale image', async () => {
    const png = await samplePng(2400, 1200);
    const post = await createPost(server, author, { hashtags: ['#Jazz', ' poetry ', 'jazz', '', '##Beat'] }, png);
    assert.deepEqual(post.hashtags, ['jazz', 'poetry', 'beat']);
    assert.equal(post.author_id, author.id);
    assert.equal(post.author_username, author.username);
    assert.equal(post.archived, false);
    assert.deepEqual([post.visits, post.ratings_count, post.average_rating, post.comments_count], [0, 0, 0, 0]);
    assert.equal(post.user_rating, 0);
    assert.match(post.image, /^\/uploads\/article-[0-9a-f]{32}\.jpg$/);
    const meta = await sharp(uploadPath(post.image)).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(meta.channels, 1);
    assert.equal(meta.width, 1600);
    assert.equal(meta.exif, undefined);
    const served = await fetch(server.url + post.image);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/jpeg');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
  });

  test('hashtags may come as a JSON array in a JSON body too', async () => {
    const res = await server.api('POST', '/api/posts', { token: author.token, json: { ...articleFields(), hashtags: ['Blues'] } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.hashtags, ['blues']);
    assert.equal(res.body.image, null);
  });

  const invalid: Array<[string, Record<string, string>, string]> = [
    ['short title', { title: 'Too short' }, 'Title must be between 20 and 80 characters'],
    ['long title', { title: 'x'.repeat(81) }, 'Title must be between 20 and 80 characters'],
    ['title of spaces', { title: ' '.repeat(30) }, 'Title must be between 20 and 80 characters'],
    ['short content', { content: 'y'.repeat(149) }, 'Content must be between 150 and 10,000 characters'],
    ['long content', { content: 'y'.repeat(10_001) }, 'Content must be between 150 and 10,000 characters'],
    ['no hashtags', { hashtags: '[]' }, 'You must include between 1 and 3 hashtags'],
    ['only empty hashtags', { hashtags: '["", "#"]' }, 'You must include between 1 and 3 hashtags'],
    ['four hashtags', { hashtags: '["a","b","c","d"]' }, 'You must include between 1 and 3 hashtags'],
    ['hashtags not JSON', { hashtags: 'jazz,blues' }, 'You must include between 1 and 3 hashtags'],
    ['hashtags a JSON object', { hashtags: '{"a":1}' }, 'You must include between 1 and 3 hashtags'],
    ['a long hashtag', { hashtags: '["abcdefghijklmnopqrstu"]' }, 'Each hashtag can have at most 20 characters'],
    ['a hashtag with a space', { hashtags: '["free jazz"]' }, 'Hashtags can only contain letters, numbers, hyphens and underscores'],
  ];
  for (const [name, change, detail] of invalid) {
    test(`400 for ${name}: "${detail}", nothing stored`, async () => {
      const before = await countRows('posts');
      const res = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ ...articleFields(), ...change }) });
      assert.deepEqual([res.status, res.body], [400, { detail }]);
      assert.equal(await countRows('posts'), before);
    });
  }

  test('four duplicate-free tags after normalisation still count as four', async () => {
    const res = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ ...articleFields(), hashtags: '["A","a","B","c","D"]' }) });
    assert.equal(res.status, 400);
  });

  test('image checks: not an image, too large; no file is left behind', async () => {
    const fake = await server.api('POST', '/api/posts', {
      token: author.token,
      body: multipart(articleFields(), { field: 'image', data: Buffer.from('%PDF-1.4 not a picture'), type: 'image/png' }),
    });
    assert.deepEqual([fake.status, fake.body], [400, { detail: 'Please select a valid image file' }]);
    const svg = await server.api('POST', '/api/posts', {
      token: author.token,
      body: multipart(articleFields(), { field: 'image', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), type: 'image/svg+xml' }),
    });
    assert.deepEqual([svg.status, svg.body], [400, { detail: 'Please select a valid image file' }]);
    const big = await server.api('POST', '/api/posts', {
      token: author.token,
      body: multipart(articleFields(), { field: 'image', data: Buffer.alloc(5 * 1024 * 1024 + 1, 1) }),
    });
    assert.deepEqual([big.status, big.body], [413, { detail: 'Image cannot exceed 5MB' }]);
    const wrongField = await server.api('POST', '/api/posts', {
      token: author.token,
      body: multipart(articleFields(), { field: 'photo', data: await samplePng() }),
    });
    assert.equal(wrongField.status, 400);
    const files = await import('node:fs/promises').then((fs) => fs.readdir(path.join(server.dataDir, 'uploads')));
    const stored = await server.ctx.db.selectFrom('posts').select('image').where('image', 'is not', null).execute();
    assert.equal(files.length, stored.length, 'only images of stored posts are on disk');
  });
});

describe('editing, archiving and deleting', () => {
  test('PUT replaces fields, tags and image; the old image file is removed', async () => {
    const post = await createPost(server, author, { hashtags: ['old', 'kept'] }, await samplePng());
    const res = await server.api('PUT', `/api/posts/${post.id}`, {
      token: author.token,
      body: multipart({ ...articleFields({ title: 'An entirely new headline here', hashtags: ['kept', 'new'] }) }, { field: 'image', data: await samplePng(100, 100) }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.title, 'An entirely new headline here');
    assert.deepEqual(res.body.hashtags, ['kept', 'new']);
    assert.notEqual(res.body.image, post.image);
    assert.ok(!existsSync(uploadPath(post.image)));
    assert.ok(existsSync(uploadPath(res.body.image)));
    assert.ok(res.body.updated_at >= post.updated_at);
    const tags = await server.ctx.db.selectFrom('post_hashtags').select('tag').where('post_id', '=', post.id).orderBy('tag').execute();
    assert.deepEqual(tags.map((t) => t.tag), ['kept', 'new']);

    const dropped = await server.api('PUT', `/api/posts/${post.id}`, { token: author.token, body: multipart({ ...articleFields(), remove_image: 'true' }) });
    assert.equal(dropped.body.image, null);
    assert.ok(!existsSync(uploadPath(res.body.image)));
  });

  test('archive toggles with the server message; archived posts vanish for everyone else', async () => {
    const post = await createPost(server, author, { hashtags: ['hidden'] });
    const archived = await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token });
    assert.deepEqual(archived.body, { message: 'Article archived successfully', archived: true });
    // Who may still open it: test/api/permissions.test.ts.
    assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: author.token })).body.archived, true);
    const lists = await Promise.all(['/api/posts', '/api/frontpage', '/api/ranks', '/api/posts?hashtag=hidden', '/api/ranks?hashtag=hidden',
      `/api/users/${author.id}/posts`].map((url) => server.api('GET', url)));
    for (const list of lists) assert.ok(!list.body.posts.some((p: any) => p.id === post.id));
    const tags = await server.api('GET', '/api/hashtags');
    assert.ok(!tags.body.some((t: any) => t.hashtag === 'hidden'));
    const own = await server.api('GET', `/api/users/${author.id}/posts?archived=true`, { token: author.token });
    assert.ok(own.body.posts.some((p: any) => p.id === post.id));

    const restored = await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token });
    assert.deepEqual(restored.body, { message: 'Article unarchived successfully', archived: false });
    assert.equal((await server.api('GET', `/api/posts/${post.id}`)).status, 200);
  });

  test('DELETE removes the article, its image, ratings and comments', async () => {
    const post = await createPost(server, author, {}, await samplePng());
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 4 } });
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'Nice' } });
    const res = await server.api('DELETE', `/api/posts/${post.id}`, { token: author.token });
    assert.deepEqual([res.status, res.body], [200, { message: 'Article deleted successfully' }]);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`)).status, 404);
    assert.ok(!existsSync(uploadPath(post.image)));
    for (const table of ['ratings', 'comments', 'post_hashtags', 'post_ranks', 'post_rank_order'] as const) {
      const rows = await server.ctx.db.selectFrom(table).selectAll().where('post_id', '=', post.id).execute();
      assert.equal(rows.length, 0, table);
    }
  });
});

describe('reading', () => {
  test('GET /api/posts: newest active first, paged, with total and hashtag filter', async () => {
    const fresh = await startTestServer();
    try {
      const writer = await createUser(fresh);
      const ids = [];
      for (let i = 0; i < 5; i += 1) ids.push((await createPost(fresh, writer, { hashtags: i % 2 ? ['odd'] : ['even'] })).id);
      const page = await fresh.api('GET', '/api/posts?skip=1&limit=2');
      assert.deepEqual(page.body.posts.map((p: any) => p.id), [ids[3], ids[2]]);
      assert.equal(page.body.total, 5);
      const odd = await fresh.api('GET', '/api/posts?hashtag=%23ODD');
      assert.deepEqual(odd.body.posts.map((p: any) => p.id), [ids[3], ids[1]]);
      assert.equal(odd.body.total, 2);
    } finally {
      await fresh.stop();
    }
  });

  test('bad paging and unknown ids', async () => {
    for (const query of ['skip=-1', 'limit=abc', 'limit=0', 'skip=1.5', 'skip=1&skip=2']) {
      const res = await server.api('GET', `/api/posts?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(typeof res.body.detail, 'string');
    }
    assert.equal((await server.api('GET', '/api/posts?limit=100000')).status, 200, 'limit is clamped');
    for (const id of ['abc', '0', '-1', '99999999', '1e3']) {
      assert.deepEqual((await server.api('GET', `/api/posts/${id}`)).body, { detail: 'Article not found' }, id);
    }
  });

  test('visits: once per reader per 30 minutes, never the author', async () => {
    const post = await createPost(server, author);
    await server.api('GET', `/api/posts/${post.id}`, { token: author.token });
    await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
    await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
    await server.api('GET', `/api/posts/${post.id}`, { headers: { 'user-agent': 'visitor-a' } });
    await server.api('GET', `/api/posts/${post.id}`, { headers: { 'user-agent': 'visitor-a' } });
    // Another browser on the same address is the same visitor (test/api/visits.test.ts).
    const seen = await server.api('GET', `/api/posts/${post.id}`, { headers: { 'user-agent': 'visitor-b' } });
    assert.equal(seen.body.visits, 2);
    // Half an hour later the same reader counts again.
    await letVisitsCountAgain(server, { postId: post.id, visitor: `u:${reader.id}` });
    const again = await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
    assert.equal(again.body.visits, 3);
    const user = await server.ctx.db.selectFrom('users').select('received_visits').where('id', '=', author.id).executeTakeFirstOrThrow();
    assert.ok(user.received_visits >= 3);
  });

  test("an author's list: sorts, search over title, content and tags, time period", async () => {
    const fresh = await startTestServer();
    try {
      const writer = await createUser(fresh);
      const fan = await createUser(fresh);
      const a = await createPost(fresh, writer, { title: 'Alpha headline for sorting tests', hashtags: ['zeta'] });
      const b = await createPost(fresh, writer, { title: 'Bravo headline for sorting tests', content: `Mentions saxophone. ${'x '.repeat(80)}` });
      const c = await createPost(fresh, writer, { title: 'Charlie headline for sorting test' });
      await fresh.api('POST', `/api/posts/${a.id}/rate`, { token: fan.token, json: { rating: 5 } });
      await fresh.api('POST', `/api/posts/${c.id}/rate`, { token: fan.token, json: { rating: 2 } });
      await fresh.api('GET', `/api/posts/${b.id}`, { token: fan.token });
      const order = async (q: string) => (await fresh.api('GET', `/api/users/${writer.id}/posts?${q}`)).body.posts.map((p: any) => p.id);
      assert.deepEqual(await order('sort_by=newest'), [c.id, b.id, a.id]);
      assert.deepEqual(await order('sort_by=oldest'), [a.id, b.id, c.id]);
      assert.deepEqual((await order('sort_by=most_visited'))[0], b.id);
      // By bayesian rating with m = 3 (nothing rated at the start's refresh): a 5★ is above the
      // unrated b (3), a single 2★ below it.
      assert.deepEqual(await order('sort_by=best_rated'), [a.id, b.id, c.id]);
      assert.deepEqual(await order('sort_by=lowest_rated'), [c.id, b.id, a.id]);
      assert.deepEqual(await order('search=saxophone'), [b.id]);
      assert.deepEqual(await order('search=ZET'), [a.id]);
      assert.deepEqual(await order('search=charlie'), [c.id]);
      assert.deepEqual(await order('search=100%25'), []);
      assert.deepEqual(await order('hashtag=zeta'), [a.id]);
      await fresh.ctx.db.updateTable('posts').set({ created_at: new Date(Date.now() - 3 * 86_400_000).toISOString() }).where('id', '=', a.id).execute();
      assert.deepEqual(await order('time_period=24h'), [c.id, b.id]);
      assert.deepEqual(await order('time_period=7d'), [c.id, b.id, a.id]);
      const res = await fresh.api('GET', `/api/users/${writer.id}/posts?sort_by=sideways`);
      assert.equal(res.status, 400);
      assert.match(res.body.detail, /^sort_by must be one of: newest, oldest/);
      assert.equal((await fresh.api('GET', `/api/users/${writer.id}/posts?time_period=1y`)).status, 400);
      assert.equal((await fresh.api('GET', '/api/users/999/posts')).status, 404);
    } finally {
      await fresh.stop();
    }
  });
});

async function countRows(table: 'posts'): Promise<number> {
  const row = await server.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
