// Anonymous visits are told apart by client IP alone (DESIGN.md, Edges): a script rotating its
// User-Agent from one address is one reader, two addresses are two readers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { apiFrom } from './from-address.ts';

let server: TestServer;
let author: TestUser;

before(async () => {
  server = await startTestServer();
  author = await createUser(server);
});
after(async () => { await server.stop(); });

const read = (address: string, postId: number, userAgent: string) =>
  apiFrom(address, server.url, 'GET', `/api/posts/${postId}`, { headers: { 'user-agent': userAgent } });

test('rotating the User-Agent from one IP counts one visit in 30 minutes', async () => {
  const post = await createPost(server, author);
  for (let i = 0; i < 10; i += 1) {
    const res = await read('127.0.0.2', post.id, `Mozilla/5.0 (rotating agent ${i})`);
    assert.equal(res.status, 200);
  }
  const seen = await read('127.0.0.2', post.id, 'curl/8.0');
  assert.equal(seen.body.visits, 1);
  const visitors = await server.ctx.db.selectFrom('post_visits').select('visitor').where('post_id', '=', post.id).execute();
  assert.equal(visitors.length, 1);
  assert.match(visitors[0]!.visitor, /^a:/);
});

test('two IPs with the same browser count two visits', async () => {
  const post = await createPost(server, author);
  await read('127.0.0.2', post.id, 'Mozilla/5.0 (same browser)');
  await read('127.0.0.3', post.id, 'Mozilla/5.0 (same browser)');
  const seen = await read('127.0.0.3', post.id, 'Mozilla/5.0 (same browser)');
  assert.equal(seen.body.visits, 2);
  const stats = await server.ctx.db.selectFrom('users').select('received_visits').where('id', '=', author.id).executeTakeFirstOrThrow();
  assert.ok(stats.received_visits >= 2);
});
