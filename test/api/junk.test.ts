// Malformed input of any kind gets a 4xx {detail} and never a 500: junk query strings, bodies
// and multipart forms thrown at every endpoint, as every kind of caller.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createAdmin, createUser, multipart, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let user: TestUser;
let admin: TestUser;
let postId: number;

before(async () => {
  server = await startTestServer();
  user = await createUser(server);
  admin = await createAdmin(server);
  postId = (await createPost(server, user)).id;
});
after(async () => { await server.stop(); });

const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/api/posts'], ['POST', '/api/posts'], ['GET', '/api/posts/:id'], ['PUT', '/api/posts/:id'],
  ['PUT', '/api/posts/:id/archive'], ['POST', '/api/posts/:id/rate'], ['GET', '/api/posts/:id/comments'],
  ['POST', '/api/posts/:id/comments'], ['PUT', '/api/comments/:id'], ['DELETE', '/api/comments/:id'],
  ['GET', '/api/frontpage'], ['GET', '/api/ranks'], ['GET', '/api/hashtags'], ['GET', '/api/authors'],
  ['GET', '/api/users/:id'], ['GET', '/api/users/:id/posts'], ['GET', '/api/users/:id/followers'],
  ['GET', '/api/users/:id/following'], ['PUT', '/api/users/me'], ['POST', '/api/follow/:id'],
  ['DELETE', '/api/follow/:id'], ['GET', '/api/users/by-username/:id'], ['POST', '/api/users/by-username/:id/follow'],
  ['GET', '/api/notifications'], ['POST', '/api/notifications/:id/mark-read'],
  ['GET', '/api/admin/users'], ['GET', '/api/admin/posts'], ['GET', '/api/admin/banned-users'],
  ['POST', '/api/admin/update-user-level'], ['POST', '/api/admin/ban-user'], ['POST', '/api/admin/unban-user/:id'],
  ['POST', '/api/admin/send-notification'], ['DELETE', '/api/admin/delete-post/:id'],
];

const QUERY_KEYS = ['skip', 'limit', 'hashtag', 'search', 'sort_by', 'time_period', 'criteria', 'archived', 'unread_only', 'level', 'reason'];
const junkText = fc.oneof(
  fc.string({ maxLength: 30 }), fc.constantFrom('-1', '1e9', 'NaN', '0x10', '99999999999999999999', '%', '%%', '\u0000', '../..', 'true', '[]', '{}'),
  fc.integer().map(String),
);
const junkValue = fc.oneof(junkText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(junkText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), junkText, { maxKeys: 3 }), fc.constant('x'.repeat(20_000)));
const junkId = fc.oneof(fc.constantFrom('1', '0', '-5', 'abc', '1.5', '99999999999999999999', '%20', 'me', '..'), fc.integer({ min: 1, max: 3 }).map(String));

const callers = () => [undefined, user.token, admin.token, 'not-a-token'];

test('no endpoint answers 5xx to junk queries, bodies or forms', async () => {
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(...ENDPOINTS),
    junkId,
    fc.dictionary(fc.constantFrom(...QUERY_KEYS), junkText, { maxKeys: 4 }),
    fc.dictionary(fc.constantFrom('title', 'content', 'hashtags', 'rating', 'post_id', 'username', 'bio', 'user_id',
      'level', 'ban_type', 'ban_reason', 'ban_until', 'subject', 'message', 'notification_type', 'email', 'password'), junkValue, { maxKeys: 6 }),
    fc.constantFrom('json', 'multipart', 'broken-json', 'none'),
    fc.integer({ min: 0, max: 3 }),
    async ([method, pattern], id, query, body, encoding, callerIndex) => {
      const url = pattern.replace(':id', encodeURIComponent(id === '1' ? String(postId) : id))
        + '?' + new URLSearchParams(query).toString();
      const token = callers()[callerIndex];
      let options: Parameters<TestServer['api']>[2] = { token };
      if (method !== 'GET') {
        if (encoding === 'json') options = { token, json: body };
        if (encoding === 'multipart') options = { token, body: multipart(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))) };
        if (encoding === 'broken-json') options = { token, body: '{"title": [', headers: { 'content-type': 'application/json' } };
      }
      const res = await server.api(method, url, options);
      assert.ok(res.status < 500, `${res.status} for ${method} ${url} ${encoding} ${JSON.stringify(body).slice(0, 300)}: ${JSON.stringify(res.body)}`);
      if (res.status >= 400) assert.equal(typeof res.body?.detail, 'string', `${method} ${url}: ${JSON.stringify(res.body)}`);
    },
  ), { numRuns: 600 });
});
