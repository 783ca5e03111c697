import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let ana: TestUser;
let bob: TestUser;
let readers: TestUser[];
const posts: Record<string, any> = {};

before(async () => {
  server = await startTestServer();
  ana = await createUser(server, { username: 'ana_writes', bio: 'Poet of the night' });
  bob = await createUser(server, { username: 'bob_jazz', bio: 'Saxophone and ink' });
  await createUser(server, { username: 'silent_sam' });
  readers = [await createUser(server), await createUser(server), await createUser(server)];
  posts.old = await createPost(server, ana, { title: 'An old piece about the night sky', hashtags: ['night', 'sky'] });
  posts.popular = await createPost(server, bob, { title: 'A popular piece about free jazz', hashtags: ['jazz', 'freejazz'] });
  posts.fresh = await createPost(server, ana, { title: 'A fresh piece about city lights', hashtags: ['city', 'night'] });
  for (const reader of readers) {
    await server.api('GET', `/api/posts/${posts.popular.id}`, { token: reader.token });
    await server.api('POST', `/api/posts/${posts.popular.id}/rate`, { token: reader.token, json: { rating: 5 } });
    await server.api('POST', `/api/posts/${posts.popular.id}/comments`, { token: reader.token, json: { content: 'Bravo' } });
  }
  await server.api('POST', `/api/posts/${posts.old.id}/rate`, { token: readers[0]!.token, json: { rating: 2 } });
  await server.api('GET', `/api/posts/${posts.old.id}`, { token: readers[0]!.token });
  await server.ctx.db.updateTable('posts').set({ created_at: new Date(Date.now() - 20 * 86_400_000).toISOString() }).where('id', '=', posts.old.id).execute();
  await recomputeRanks(server.ctx.db);
});
after(async () => { await server.stop(); });

const ids = (body: any) => body.posts.map((p: any) => p.id);

describe('GET /api/ranks', () => {
  test('ranking order: earned score discounted by age', async () => {
    const res = await server.api('GET', '/api/ranks');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res.body), [posts.popular.id, posts.fresh.id, posts.old.id]);
  });

  test('criteria=visits, time_period, hashtag contains', async () => {
    assert.deepEqual(ids((await server.api('GET', '/api/ranks?criteria=visits')).body)[0], posts.popular.id);
    assert.deepEqual(ids((await server.api('GET', '/api/ranks?time_period=7d')).body).sort(), [posts.popular.id, posts.fresh.id].sort());
    assert.deepEqual(ids((await server.api('GET', '/api/ranks?hashtag=NIG')).body), [posts.fresh.id, posts.old.id]);
    assert.deepEqual(ids((await server.api('GET', '/api/ranks?hashtag=%23jazz')).body), [posts.popular.id]);
    assert.deepEqual(ids((await server.api('GET', '/api/ranks?hashtag=nothing')).body), []);
    assert.equal((await server.api('GET', '/api/ranks?criteria=best')).status, 400);
    assert.equal((await server.api('GET', '/api/ranks?time_period=1y')).status, 400);
  });

  test('a post published after the last refresh still appears', async () => {
    const late = await createPost(server, bob, { hashtags: ['latecomer'] });
    assert.deepEqual(ids((await server.api('GET', '/api/ranks?hashtag=latecomer')).body), [late.id]);
    await server.api('DELETE', `/api/posts/${late.id}`, { token: bob.token });
  });
});

describe('GET /api/frontpage', () => {
  test('best ranked of the week first, then the newest, with 200-character excerpts', async () => {
    const res = await server.api('GET', '/api/frontpage');
    assert.equal(res.status, 200);
    assert.equal(ids(res.body)[0], posts.popular.id);
    assert.deepEqual(new Set(ids(res.body)), new Set([posts.popular.id, posts.fresh.id, posts.old.id]));
    for (const post of res.body.posts) assert.ok(post.excerpt.length <= 201);
  });
});

describe('GET /api/hashtags', () => {
  test('counts over active posts, most used first; search', async () => {
    const res = await server.api('GET', '/api/hashtags');
    assert.deepEqual(res.body[0], { hashtag: 'night', count: 2 });
    assert.ok(res.body.some((t: any) => t.hashtag === 'jazz' && t.count === 1));
    assert.deepEqual((await server.api('GET', '/api/hashtags?search=JAZ')).body.map((t: any) => t.hashtag).sort(), ['freejazz', 'jazz']);
  });
});

describe('GET /api/authors', () => {
  test('authors with articles, six sorts, search, total', async () => {
    const res = await server.api('GET', '/api/authors');
    assert.equal(res.body.total, 2, 'users without articles are not authors');
    assert.deepEqual(res.body.authors.map((a: any) => a.username), ['bob_jazz', 'ana_writes']);
    const order = async (sort: string) => (await server.api('GET', `/api/authors?sort_by=${sort}`)).body.authors.map((a: any) => a.username);
    assert.deepEqual(await order('mojo_asc'), ['ana_writes', 'bob_jazz']);
    assert.deepEqual(await order('posts_desc'), ['ana_writes', 'bob_jazz']);
    assert.deepEqual(await order('posts_asc'), ['bob_jazz', 'ana_writes']);
    assert.deepEqual(await order('rating_desc'), ['bob_jazz', 'ana_writes']);
    assert.deepEqual(await order('rating_asc'), ['ana_writes', 'bob_jazz']);
    const search = await server.api('GET', '/api/authors?search=saxophone');
    assert.deepEqual([search.body.total, search.body.authors[0].username], [1, 'bob_jazz']);
    assert.equal(search.body.authors[0].email, undefined, 'no private fields in a public list');
    assert.equal((await server.api('GET', '/api/authors?sort_by=name')).status, 400);
  });
});

describe('admin article moderation', () => {
  test('GET /api/admin/posts lists all articles with search; DELETE needs a reason and tells the author', async () => {
    const admin = await createAdmin(server); // who else may moderate: test/api/permissions.test.ts
    const all = await server.api('GET', '/api/admin/posts', { token: admin.token });
    assert.equal(all.body.total, 3);
    const byAuthor = await server.api('GET', '/api/admin/posts?search=bob_j', { token: admin.token });
    assert.deepEqual(ids(byAuthor.body), [posts.popular.id]);
    const byTitle = await server.api('GET', '/api/admin/posts?search=city', { token: admin.token });
    assert.deepEqual(ids(byTitle.body), [posts.fresh.id]);

    const victim = await createPost(server, ana, { title: 'An article that breaks the rules' });
    const noReason = await server.api('DELETE', `/api/admin/delete-post/${victim.id}?reason=%20`, { token: admin.token });
    assert.deepEqual([noReason.status, noReason.body], [400, { detail: 'Please enter a reason for deleting the post' }]);
    const done = await server.api('DELETE', `/api/admin/delete-post/${victim.id}?reason=Spam%20links`, { token: admin.token });
    assert.deepEqual([done.status, done.body], [200, { message: 'Post deleted successfully' }]);
    assert.equal((await server.api('GET', `/api/posts/${victim.id}`)).status, 404);
    const note = await server.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', ana.id).where('type', '=', 'post_deleted').executeTakeFirstOrThrow();
    assert.equal(note.post_title, 'An article that breaks the rules');
    assert.match(note.message, /Spam links/);
    assert.equal(note.created_by, admin.username);
    const log = await server.ctx.db.selectFrom('moderation_log').selectAll().where('post_id', '=', victim.id).executeTakeFirstOrThrow();
    assert.deepEqual([log.action, log.reason, log.admin_id], ['delete_post', 'Spam links', admin.id]);
    assert.equal((await server.api('DELETE', `/api/admin/delete-post/${victim.id}?reason=again`, { token: admin.token })).status, 404);
  });
});
