// The brakes on a new account (DESIGN.md, Running a community): in its first 24 hours at most 2
// articles and 10 comments an hour, the next refused with a 429 saying when and nothing written;
// drafts count once published; an older account and an admin are not braked; two posts at once
// cannot both slip under the limit; RATE_LIMITS=off lifts it (test servers run with it off: these
// run with it on).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAdmin, createUser, multipart, sqlNumber, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';

const ARTICLES_DETAIL = /^New accounts can publish 2 articles an hour\. Try again in (\d+) minutes?\.$/;
const COMMENTS_DETAIL = /^New accounts can post 10 comments an hour\. Try again in (\d+) minutes?\.$/;

const publish = (server: TestServer, who: TestUser) =>
  server.api('POST', '/api/posts', { token: who.token, body: multipart(articleFields()) });
const comment = (server: TestServer, who: TestUser, postId: number, n: number) =>
  server.api('POST', `/api/posts/${postId}/comments`, { token: who.token, json: { content: `Comment number ${n}` } });
const postsBy = (server: TestServer, who: TestUser) => sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', who.id);
const commentsBy = (server: TestServer, who: TestUser) => sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM comments WHERE author_id = ?', who.id);

/** As if the account had registered `hours` ago. */
async function ageAccount(server: TestServer, who: TestUser, hours: number): Promise<void> {
  await server.ctx.db.updateTable('users').set({ created_at: new Date(Date.now() - hours * 3_600_000).toISOString() })
    .where('id', '=', who.id).execute();
}

describe('with RATE_LIMITS on', () => {
  let server: TestServer;
  let admin: TestUser;
  let host: TestUser;
  let hostPost: { id: number };
  before(async () => {
    server = await startTestServer({ env: { RATE_LIMITS: 'on' } });
    admin = await createAdmin(server);
    host = await createUser(server);
    await ageAccount(server, host, 48);
    hostPost = await createPost(server, host);
  });
  after(() => server.stop());

  test('a new account\'s third article within the hour: 429 saying when, nothing written', async () => {
    const fresh = await createUser(server);
    assert.equal((await publish(server, fresh)).status, 201);
    assert.equal((await publish(server, fresh)).status, 201);
    const third = await publish(server, fresh);
    assert.equal(third.status, 429);
    const minutes = Number(ARTICLES_DETAIL.exec(third.body.detail)?.[1]);
    assert.ok(minutes >= 59 && minutes <= 60, third.body.detail);
    assert.ok(Number(third.headers.get('retry-after')) > 3000);
    assert.equal(await postsBy(server, fresh), 2);
    assert.equal((await server.api('GET', `/api/users/${fresh.id}`)).body.posts_count, 2);
  });

  test('drafts do not count until published; publishing one counts', async () => {
    const fresh = await createUser(server);
    const drafts = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await server.api('POST', '/api/posts', { token: fresh.token, body: multipart({ ...articleFields(), draft: 'true' }) });
      assert.equal(res.status, 201);
      drafts.push(res.body.id as number);
    }
    assert.equal((await publish(server, fresh)).status, 201);
    assert.equal((await server.api('POST', `/api/posts/${drafts[0]}/publish`, { token: fresh.token })).status, 200);
    const refused = await server.api('POST', `/api/posts/${drafts[1]}/publish`, { token: fresh.token });
    assert.equal(refused.status, 429);
    assert.match(refused.body.detail, ARTICLES_DETAIL);
    assert.equal(await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM posts WHERE author_id = ? AND status = 'draft'", fresh.id), 2);
  });

  test('a new account\'s 11th comment within the hour: 429, nothing written', async () => {
    const fresh = await createUser(server);
    for (let n = 1; n <= 10; n += 1) assert.equal((await comment(server, fresh, hostPost.id, n)).status, 201);
    const eleventh = await comment(server, fresh, hostPost.id, 11);
    assert.equal(eleventh.status, 429);
    assert.match(eleventh.body.detail, COMMENTS_DETAIL);
    assert.equal(await commentsBy(server, fresh), 10);
  });

  test('the hour rolls on: an article older than an hour no longer counts', async () => {
    const fresh = await createUser(server);
    assert.equal((await publish(server, fresh)).status, 201);
    assert.equal((await publish(server, fresh)).status, 201);
    await server.ctx.db.updateTable('posts').set({ created_at: new Date(Date.now() - 61 * 60_000).toISOString() })
      .where('author_id', '=', fresh.id).execute();
    assert.equal((await publish(server, fresh)).status, 201);
  });

  test('two articles at once with one left: one is published, one refused', async () => {
    for (let round = 0; round < 3; round += 1) {
      const fresh = await createUser(server);
      assert.equal((await publish(server, fresh)).status, 201);
      const answers = await Promise.all([publish(server, fresh), publish(server, fresh)]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 429]);
      assert.equal(await postsBy(server, fresh), 2);
    }
  });

  test('two comments at once with one left: one is written, one refused', async () => {
    const fresh = await createUser(server);
    for (let n = 1; n <= 9; n += 1) assert.equal((await comment(server, fresh, hostPost.id, n)).status, 201);
    const answers = await Promise.all([comment(server, fresh, hostPost.id, 10), comment(server, fresh, hostPost.id, 11)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 429]);
    assert.equal(await commentsBy(server, fresh), 10);
  });

  test('an account over a day old is not braked', async () => {
    const older = await createUser(server);
    await ageAccount(server, older, 25);
    for (let i = 0; i < 3; i += 1) assert.equal((await publish(server, older)).status, 201);
    for (let n = 1; n <= 11; n += 1) assert.equal((await comment(server, older, hostPost.id, n)).status, 201);
  });

  test('an admin is not braked, however new', async () => {
    for (let i = 0; i < 3; i += 1) assert.equal((await publish(server, admin)).status, 201);
    for (let n = 1; n <= 11; n += 1) assert.equal((await comment(server, admin, hostPost.id, n)).status, 201);
  });
});

describe('with RATE_LIMITS off', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ env: { RATE_LIMITS: 'off' } }); });
  after(() => server.stop());

  test('a new account is not braked', async () => {
    const fresh = await createUser(server);
    for (let i = 0; i < 3; i += 1) assert.equal((await publish(server, fresh)).status, 201);
    const post = await createPost(server, fresh);
    for (let n = 1; n <= 11; n += 1) assert.equal((await comment(server, fresh, post.id, n)).status, 201);
  });
});
