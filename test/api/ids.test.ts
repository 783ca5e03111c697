// Ids are never reused (DESIGN.md, Edges): after the newest row of a table is deleted, the next
// row gets a greater id, so old links, notifications and moderation records keep naming what
// they named. Posts and comments are deleted through the API; users, notifications and log
// entries have no delete endpoint yet, so their newest row is deleted in the database.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let author: TestUser;
let admin: TestUser;

before(async () => {
  server = await startTestServer();
  author = await createUser(server);
  admin = await createAdmin(server);
});
after(async () => { await server.stop(); });

test('a deleted post\'s id is not given to the next post', async () => {
  const newest = await createPost(server, author);
  assert.equal((await server.api('DELETE', `/api/posts/${newest.id}`, { token: author.token })).status, 200);
  const next = await createPost(server, author);
  assert.ok(next.id > newest.id, `new post ${next.id} after deleted ${newest.id}`);
  assert.equal((await server.api('GET', `/api/posts/${newest.id}`)).status, 404, 'the old link stays dead');
});

test('an admin-deleted post\'s id in the moderation log never names another article', async () => {
  const removed = await createPost(server, author);
  const res = await server.api('DELETE', `/api/admin/delete-post/${removed.id}?reason=spam`, { token: admin.token });
  assert.equal(res.status, 200);
  const next = await createPost(server, author);
  assert.ok(next.id > removed.id);
  const entry = await server.ctx.db.selectFrom('moderation_log').select('post_id').orderBy('id', 'desc').executeTakeFirstOrThrow();
  assert.equal(entry.post_id, removed.id);
});

test('a deleted comment\'s id is not given to the next comment', async () => {
  const post = await createPost(server, author);
  const comment = (path: string) => server.api('POST', path, { token: admin.token, json: { content: 'A fine piece.' } });
  const newest = await comment(`/api/posts/${post.id}/comments`);
  assert.equal(newest.status, 201);
  assert.equal((await server.api('DELETE', `/api/comments/${newest.body.id}`, { token: admin.token })).status, 200);
  const next = await comment(`/api/posts/${post.id}/comments`);
  assert.ok(next.body.id > newest.body.id, `new comment ${next.body.id} after deleted ${newest.body.id}`);
});

test('a deleted user\'s id is not given to the next user', async () => {
  const newest = await createUser(server);
  await server.ctx.db.deleteFrom('users').where('id', '=', newest.id).execute();
  const next = await createUser(server);
  assert.ok(next.id > newest.id, `new user ${next.id} after deleted ${newest.id}`);
});

test('deleted notification and moderation-log ids are not given again', async () => {
  const target = await createUser(server);
  const notify = () => server.api('POST', '/api/admin/send-notification', {
    token: admin.token, json: { user_id: target.id, subject: 'Hello', message: 'Welcome aboard.' },
  });
  const newestNotification = async () => (await server.ctx.db.selectFrom('notifications').select('id')
    .orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
  assert.equal((await notify()).status, 200);
  const deleted = await newestNotification();
  await server.ctx.db.deleteFrom('notifications').where('id', '=', deleted).execute();
  assert.equal((await notify()).status, 200);
  assert.ok(await newestNotification() > deleted);

  const level = (value: string) => server.api('POST', '/api/admin/update-user-level', {
    token: admin.token, json: { user_id: target.id, level: value },
  });
  const newestEntry = async () => (await server.ctx.db.selectFrom('moderation_log').select('id')
    .orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
  assert.equal((await level('admin')).status, 200);
  const deletedEntry = await newestEntry();
  await server.ctx.db.deleteFrom('moderation_log').where('id', '=', deletedEntry).execute();
  assert.equal((await level('user')).status, 200);
  assert.ok(await newestEntry() > deletedEntry);
});
