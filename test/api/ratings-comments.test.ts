import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let author: TestUser;
let reader: TestUser;
let admin: TestUser;

before(async () => {
  server = await startTestServer();
  author = await createUser(server);
  reader = await createUser(server);
  admin = await createAdmin(server);
});
after(async () => { await server.stop(); });

describe('POST /api/posts/:id/rate', () => {
  test('one rating per reader; rating again replaces it; averages and mojo follow', async () => {
    const post = await createPost(server, author);
    const first = await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { post_id: post.id, rating: 5 } });
    assert.equal(first.status, 200);
    assert.deepEqual([first.body.ratings_count, first.body.average_rating, first.body.user_rating], [1, 5, 5]);
    const again = await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 2 } });
    assert.deepEqual([again.body.ratings_count, again.body.average_rating, again.body.user_rating], [1, 2, 2]);
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: admin.token, json: { rating: 3 } });
    const read = await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
    assert.deepEqual([read.body.ratings_count, read.body.average_rating, read.body.user_rating], [2, 2.5, 2]);
    const stored = await server.ctx.db.selectFrom('ratings').selectAll().where('post_id', '=', post.id).execute();
    assert.equal(stored.length, 2);
  });

  test('good ratings raise mojo, bad ones lower it', async () => {
    const writer = await createUser(server);
    const good = await createPost(server, writer);
    const mojo = async () => (await server.api('GET', '/api/users/me', { token: writer.token })).body.mojo;
    assert.equal(await mojo(), 0);
    await server.api('POST', `/api/posts/${good.id}/rate`, { token: reader.token, json: { rating: 5 } });
    const raised = await mojo();
    assert.ok(raised > 0);
    await server.api('POST', `/api/posts/${good.id}/rate`, { token: reader.token, json: { rating: 1 } });
    assert.ok(await mojo() < 0);
  });

  const bad: Array<[unknown, number, string]> = [
    [0, 400, 'Rating must be a whole number from 1 to 5'],
    [6, 400, 'Rating must be a whole number from 1 to 5'],
    [3.5, 400, 'Rating must be a whole number from 1 to 5'],
    ['five', 400, 'Rating must be a whole number from 1 to 5'],
    [null, 400, 'Rating must be a whole number from 1 to 5'],
    [[4], 400, 'Rating must be a whole number from 1 to 5'],
  ];
  for (const [rating, status, detail] of bad) {
    test(`rating ${JSON.stringify(rating)} → ${status}`, async () => {
      const post = await createPost(server, author);
      const res = await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating } });
      assert.deepEqual([res.status, res.body], [status, { detail }]);
      assert.equal((await server.ctx.db.selectFrom('ratings').selectAll().where('post_id', '=', post.id).execute()).length, 0);
    });
  }

  // Who may rate: test/api/permissions.test.ts.
  test('an unknown article is a 404; a post_id naming another article is a 400', async () => {
    const post = await createPost(server, author);
    assert.equal((await server.api('POST', '/api/posts/99999/rate', { token: reader.token, json: { rating: 4 } })).status, 404);
    const mismatch = await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { post_id: post.id + 1, rating: 4 } });
    assert.equal(mismatch.status, 400);
  });
});

describe('GET /api/posts/:id/rating', () => {
  // Who may ask: test/api/permissions.test.ts.
  test("the signed-in reader's own rating, 0 before they rate; it counts no visit", async () => {
    const post = await createPost(server, author);
    const mine = () => server.api('GET', `/api/posts/${post.id}/rating`, { token: reader.token });
    assert.deepEqual([(await mine()).status, (await mine()).body], [200, { user_rating: 0 }]);
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 4 } });
    assert.deepEqual((await mine()).body, { user_rating: 4 });
    assert.deepEqual((await server.api('GET', `/api/posts/${post.id}/rating`, { token: author.token })).body, { user_rating: 0 });
    const stored = await server.ctx.db.selectFrom('posts').select('visits').where('id', '=', post.id).executeTakeFirstOrThrow();
    assert.equal(stored.visits, 0);
    assert.equal((await server.api('GET', '/api/posts/99999/rating', { token: reader.token })).status, 404);
  });
});

describe('a refused rating or comment', () => {
  /** Everything a rating or a comment could move. */
  async function state(postId: number) {
    const db = server.ctx.db;
    return {
      post: await db.selectFrom('posts').select(['ratings_count', 'ratings_sum', 'average_rating', 'comments_count']).where('id', '=', postId).executeTakeFirst(),
      author: await db.selectFrom('users').select(['received_ratings_count', 'received_ratings_sum', 'received_comments_count', 'mojo']).where('id', '=', author.id).executeTakeFirst(),
      ratings: (await db.selectFrom('ratings').select('rating').where('post_id', '=', postId).execute()).length,
      comments: (await db.selectFrom('comments').select('id').where('post_id', '=', postId).execute()).length,
      notifications: (await db.selectFrom('notifications').select('id').where('user_id', '=', author.id).execute()).length,
    };
  }

  test('changes nothing: own article, archived article, missing article', async () => {
    const post = await createPost(server, author);
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: 4 } });
    const before = await state(post.id);
    const own = await server.api('POST', `/api/posts/${post.id}/rate`, { token: author.token, json: { rating: 5 } });
    assert.deepEqual([own.status, own.body], [403, { detail: 'You cannot rate your own articles' }]);
    assert.deepEqual(await state(post.id), before);

    assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token })).status, 200);
    const archived = await state(post.id);
    for (const [who, status] of [[reader, 404], [admin, 404], [author, 403]] as const) {
      const rated = await server.api('POST', `/api/posts/${post.id}/rate`, { token: who.token, json: { rating: 1 } });
      assert.equal(rated.status, status, `${who.username} rating an archived article`);
      const commented = await server.api('POST', `/api/posts/${post.id}/comments`, { token: who.token, json: { content: 'Too late' } });
      assert.deepEqual([commented.status, commented.body], [404, { detail: 'Article not found' }]);
    }
    assert.deepEqual(await state(post.id), archived);

    const missing = await server.api('POST', `/api/posts/${post.id + 1000}/rate`, { token: reader.token, json: { rating: 3 } });
    assert.equal(missing.status, 404);
  });
});

describe('comments', () => {
  test('add, list oldest first, edit (edited marker), delete; counts follow; the author is notified', async () => {
    const post = await createPost(server, author);
    const first = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: '  First!  ' } });
    assert.equal(first.status, 201);
    assert.equal(first.body.content, 'First!');
    assert.equal(first.body.author_username, reader.username);
    assert.equal(first.body.created_at, first.body.updated_at);
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: author.token, json: { content: 'Thanks' } });
    const list = await server.api('GET', `/api/posts/${post.id}/comments`);
    assert.deepEqual(list.body.map((c: any) => c.content), ['First!', 'Thanks']);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`)).body.comments_count, 2);

    // Written a minute ago, so the edit's time is later whatever the clock's resolution.
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
    await server.ctx.db.updateTable('comments').set({ created_at: aMinuteAgo, updated_at: aMinuteAgo }).where('id', '=', first.body.id).execute();
    const edited = await server.api('PUT', `/api/comments/${first.body.id}`, { token: reader.token, json: { content: 'First, edited' } });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.content, 'First, edited');
    assert.ok(edited.body.updated_at > edited.body.created_at);

    const notes = await server.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', author.id).where('post_id', '=', post.id).execute();
    assert.equal(notes.length, 1, 'the author is told of the reader\'s comment, not of their own');
    assert.equal(notes[0]!.type, 'other');
    assert.equal(notes[0]!.created_by, reader.username);
    assert.equal(notes[0]!.post_title, post.title);
    assert.equal(notes[0]!.message, `${reader.username} commented on "${post.title}"`);

    const removed = await server.api('DELETE', `/api/comments/${first.body.id}`, { token: reader.token });
    assert.deepEqual([removed.status, removed.body], [200, { message: 'Comment deleted successfully' }]);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`)).body.comments_count, 1);
  });

  test('messages of SPEC §5', async () => {
    const post = await createPost(server, author);
    const empty = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: '   ' } });
    assert.deepEqual([empty.status, empty.body], [400, { detail: 'Write a comment' }]);
    const long = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'x'.repeat(1001) } });
    assert.deepEqual([long.status, long.body], [400, { detail: 'Comment cannot exceed 1000 characters' }]);
    const max = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'x'.repeat(1000) } });
    assert.equal(max.status, 201);
    const blankEdit = await server.api('PUT', `/api/comments/${max.body.id}`, { token: reader.token, json: { content: '' } });
    assert.deepEqual([blankEdit.status, blankEdit.body], [400, { detail: 'Comment cannot be empty' }]);
  });

  // Who may comment, edit and delete: test/api/permissions.test.ts.
  test('an unknown comment or article is a 404', async () => {
    assert.equal((await server.api('PUT', '/api/comments/999999', { token: reader.token, json: { content: 'x' } })).status, 404);
    assert.equal((await server.api('DELETE', '/api/comments/999999', { token: reader.token })).status, 404);
    assert.equal((await server.api('POST', '/api/posts/999999/comments', { token: reader.token, json: { content: 'x' } })).status, 404);
  });
});
