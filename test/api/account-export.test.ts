// GET /api/users/me/export (DESIGN.md, Accounts: settings): everything of the account as one JSON
// attachment — profile, every article with its image's address, comments, ratings given, follows
// both ways, notifications — and never the password's hash.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAdmin, createUser, multipart, samplePng, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let user: TestUser;
let other: TestUser;
const made: Record<string, any> = {};

async function call(method: string, url: string, as: TestUser, json?: unknown): Promise<any> {
  const res = await server.api(method, url, { token: as.token, json });
  assert.ok(res.status === 200 || res.status === 201, `${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

before(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: 'https://paper.example.org' } });
  user = await createUser(server, { username: 'keeps_records', bio: 'Writes things down' });
  other = await createUser(server);
  const admin = await createAdmin(server);
  const png = await samplePng();
  await server.api('PUT', '/api/users/me', { token: user.token, body: multipart({}, { field: 'avatar', data: png }) });
  made.withImage = await createPost(server, user, { hashtags: ['ink'] }, png);
  made.archived = await createPost(server, user, { hashtags: ['ink', 'night'] });
  await call('PUT', `/api/posts/${made.archived.id}/archive`, user);
  made.theirs = await createPost(server, other);
  await call('POST', `/api/posts/${made.theirs.id}/rate`, user, { rating: 4 });
  made.comment = await call('POST', `/api/posts/${made.theirs.id}/comments`, user, { content: 'A thought\non two lines' });
  await call('POST', `/api/follow/${other.id}`, user);
  await call('POST', `/api/follow/${user.id}`, other);
  await call('POST', '/api/admin/send-notification', admin, { user_id: user.id, subject: 'Hello', message: 'From the desk' });
});
after(async () => { await server.stop(); });

describe('GET /api/users/me/export', () => {
  test('is a JSON attachment named after the account and the day, never cached', async () => {
    const res = await server.api('GET', '/api/users/me/export', { token: user.token });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const day = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get('content-disposition'), `attachment; filename=beatnik-keeps_records-${day}.json`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  test('holds the profile, every article, comments, ratings, follows and notifications', async () => {
    const data = (await server.api('GET', '/api/users/me/export', { token: user.token })).body;
    assert.deepEqual(Object.keys(data), ['exported_at', 'site', 'profile', 'posts', 'comments', 'ratings', 'following', 'followers', 'notifications', 'mutes', 'mojo_ledger', 'email_preferences']);
    assert.equal(data.site, 'https://paper.example.org');
    assert.equal(data.profile.id, user.id);
    assert.equal(data.profile.email, user.email);
    assert.equal(data.profile.bio, 'Writes things down');
    assert.deepEqual(data.email_preferences, { comments: true, followers: false, mentions: true, digest: 'off' });
    assert.match(data.profile.avatar, /^https:\/\/paper\.example\.org\/uploads\/avatar-[0-9a-f]{32}\.jpg$/);

    assert.deepEqual(data.posts.map((p: any) => [p.id, p.archived]), [[made.archived.id, true], [made.withImage.id, false]]);
    assert.equal(data.posts[1].image, `https://paper.example.org${made.withImage.image}`);
    assert.equal(data.posts[0].image, null);
    assert.equal(data.posts[1].content, made.withImage.content);
    assert.deepEqual(data.posts[0].hashtags, ['ink', 'night']);

    assert.deepEqual(data.comments.map((c: any) => ({ id: c.id, post_id: c.post_id, post_title: c.post_title, content: c.content })),
      [{ id: made.comment.id, post_id: made.theirs.id, post_title: made.theirs.title, content: 'A thought\non two lines' }]);
    assert.deepEqual(data.ratings.map((r: any) => ({ post_id: r.post_id, post_title: r.post_title, rating: r.rating })),
      [{ post_id: made.theirs.id, post_title: made.theirs.title, rating: 4 }]);
    assert.deepEqual(data.following.map((f: any) => [f.id, f.username]), [[other.id, other.username]]);
    assert.deepEqual(data.followers.map((f: any) => [f.id, f.username]), [[other.id, other.username]]);
    assert.deepEqual(data.notifications.map((n: any) => n.subject).sort(), ['Hello', 'New follower']);
  });

  test('says nothing of the password or the sessions', async () => {
    const res = await server.api('GET', '/api/users/me/export', { token: user.token });
    const text = JSON.stringify(res.body);
    const [row] = await sqlRows<{ password_hash: string }>(server.ctx.db, 'SELECT password_hash FROM users WHERE id = ?', user.id);
    assert.ok(!text.includes(row!.password_hash));
    assert.doesNotMatch(text, /argon2|password|token_version|username_key/);
  });

  test("holds only the account's own: another user's export has none of it", async () => {
    const data = (await server.api('GET', '/api/users/me/export', { token: other.token })).body;
    assert.equal(data.profile.id, other.id);
    assert.deepEqual(data.posts.map((p: any) => p.id), [made.theirs.id]);
    assert.deepEqual(data.comments, []);
    assert.deepEqual(data.ratings, []);
  });

  test('a visitor: 401', async () => {
    const res = await server.api('GET', '/api/users/me/export');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Not authenticated' });
  });
});
