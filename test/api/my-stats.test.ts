// GET /api/users/me/stats: the My profile dashboard in one call. Signed-in only (test/api/
// permissions.test.ts); the numbers agree with a recount from the base tables after visits,
// ratings, comments, archiving and drafts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, multipart, sqlNumber, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';

let server: TestServer;

before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

const stats = (token: string) => server.api('GET', '/api/users/me/stats', { token });

/** What the dashboard shows, counted from posts, ratings and comments directly. */
async function recount(authorId: number) {
  const one = (sql: string) => sqlNumber(server.ctx.db, sql, authorId);
  const ratings = await one(`SELECT count(*) AS n FROM ratings r JOIN posts p ON p.id = r.post_id WHERE p.author_id = ? AND p.archived = 0 AND p.status = 'published'`);
  const sum = await one(`SELECT coalesce(sum(r.rating), 0) AS n FROM ratings r JOIN posts p ON p.id = r.post_id WHERE p.author_id = ? AND p.archived = 0 AND p.status = 'published'`);
  return {
    total_visits: await one("SELECT coalesce(sum(visits), 0) AS n FROM posts WHERE author_id = ? AND archived = 0 AND status = 'published'"),
    average_rating: ratings ? Math.round((sum / ratings) * 100) / 100 : 0,
    ratings_received: ratings,
    comments_received: await one(`SELECT count(*) AS n FROM comments c JOIN posts p ON p.id = c.post_id
      WHERE p.author_id = ? AND p.archived = 0 AND p.status = 'published' AND c.author_id <> p.author_id`),
    active_posts: await one("SELECT count(*) AS n FROM posts WHERE author_id = ? AND archived = 0 AND status = 'published'"),
    archived_posts: await one("SELECT count(*) AS n FROM posts WHERE author_id = ? AND archived = 1 AND status = 'published'"),
    draft_posts: await one("SELECT count(*) AS n FROM posts WHERE author_id = ? AND status = 'draft'"),
    followers: await one('SELECT count(*) AS n FROM follows WHERE followee_id = ?'),
    following: await one('SELECT count(*) AS n FROM follows WHERE follower_id = ?'),
  };
}

async function expectRecount(author: TestUser) {
  const res = await stats(author.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { mojo, ...counted } = res.body;
  assert.deepEqual(counted, await recount(author.id));
  assert.equal(typeof mojo, 'number');
  return res.body;
}

describe('GET /api/users/me/stats', () => {
  it('starts at zero for a new author', async () => {
    const body = await expectRecount(await createUser(server));
    assert.deepEqual(body, {
      total_visits: 0, average_rating: 0, ratings_received: 0, comments_received: 0,
      active_posts: 0, archived_posts: 0, draft_posts: 0, followers: 0, following: 0, mojo: 0,
    });
  });

  it('agrees with a recount after visits, ratings, comments, follows and archiving', async () => {
    const author = await createUser(server);
    const readers = await Promise.all([createUser(server), createUser(server), createUser(server)]);
    const posts = [await createPost(server, author), await createPost(server, author), await createPost(server, author)];
    for (const [i, reader] of readers.entries()) {
      for (const post of posts) {
        await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
        await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { rating: (i % 5) + 2 } });
      }
      await server.api('POST', `/api/posts/${posts[0].id}/comments`, { token: reader.token, json: { content: `Letter ${i}` } });
      await server.api('POST', `/api/follow/${author.id}`, { token: reader.token });
    }
    // The author's own reply is not a comment received.
    await server.api('POST', `/api/posts/${posts[0].id}/comments`, { token: author.token, json: { content: 'Thanks, all' } });
    await server.api('POST', `/api/follow/${readers[0]!.id}`, { token: author.token });
    let body = await expectRecount(author);
    assert.deepEqual([body.total_visits, body.ratings_received, body.comments_received, body.active_posts, body.followers, body.following],
      [9, 9, 3, 3, 3, 1]);
    assert.equal(body.average_rating, 3);

    // A rating changed, then an article archived: its numbers leave the dashboard.
    await server.api('POST', `/api/posts/${posts[1].id}/rate`, { token: readers[0]!.token, json: { rating: 5 } });
    await expectRecount(author);
    assert.equal((await server.api('PUT', `/api/posts/${posts[0].id}/archive`, { token: author.token })).status, 200);
    body = await expectRecount(author);
    assert.deepEqual([body.total_visits, body.ratings_received, body.comments_received, body.active_posts, body.archived_posts],
      [6, 6, 0, 2, 1]);

    // Unarchived, a comment deleted, an article deleted: still the recount.
    await server.api('PUT', `/api/posts/${posts[0].id}/archive`, { token: author.token });
    const comments = await server.api('GET', `/api/posts/${posts[0].id}/comments`);
    await server.api('DELETE', `/api/comments/${comments.body[0].id}`, { token: readers[0]!.token });
    await server.api('DELETE', `/api/posts/${posts[2].id}`, { token: author.token });
    body = await expectRecount(author);
    assert.deepEqual([body.active_posts, body.archived_posts, body.comments_received], [2, 0, 2]);

    // A draft is counted as a draft only, until it is published.
    const draft = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ ...articleFields(), draft: 'true' }) });
    assert.equal(draft.status, 201);
    body = await expectRecount(author);
    assert.deepEqual([body.active_posts, body.draft_posts, body.total_visits], [2, 1, 6]);
    assert.equal((await server.api('POST', `/api/posts/${draft.body.id}/publish`, { token: author.token })).status, 200);
    body = await expectRecount(author);
    assert.deepEqual([body.active_posts, body.draft_posts], [3, 0]);
  });
});
