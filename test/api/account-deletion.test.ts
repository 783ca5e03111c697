// DELETE /api/users/me {password} (DESIGN.md, Accounts: settings): everything of the account goes —
// posts and their images, comments, ratings, follows, notifications, recent visits — and every
// counter and mojo it touched is corrected in the same transaction: the other users' numbers are
// exactly what they would be had the account never rated, commented or followed, and
// check-counters finds nothing. The last administrator cannot leave.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { computeMojo } from '../../server/mojo/mojo.formula.ts';
import { cli } from '../cli/cli-helpers.ts';
import {
  createAdmin, createUser, failUpdates, multipart, samplePng, sqlNumber, sqlRows, startTestServer,
  type TestServer, type TestUser,
} from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { snapshot } from './permissions.ts';

const remove = (server: TestServer, user: TestUser, password = user.password) =>
  server.api('DELETE', '/api/users/me', { token: user.token, json: { password } });

const uploads = (server: TestServer) => readdirSync(path.join(server.dataDir, 'uploads')).sort();
const fileOf = (url: string) => url.split('/').pop()!;

interface Counters {
  posts_count: number; followers_count: number; following_count: number; received_visits: number;
  received_ratings_count: number; received_ratings_sum: number; received_comments_count: number;
  received_average_rating: number; mojo: number;
}

async function countersOf(server: TestServer, userId: number): Promise<Counters> {
  const [row] = await sqlRows<Counters>(server.ctx.db, `SELECT posts_count, followers_count, following_count, received_visits,
    received_ratings_count, received_ratings_sum, received_comments_count, received_average_rating, mojo FROM users WHERE id = ?`, userId);
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as unknown as Counters;
}

async function postCounters(server: TestServer, postId: number) {
  const [row] = await sqlRows(server.ctx.db, 'SELECT ratings_count, ratings_sum, average_rating, comments_count, visits FROM posts WHERE id = ?', postId);
  return row && Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

async function hashtagCount(server: TestServer, tag: string): Promise<number> {
  return sqlNumber(server.ctx.db, 'SELECT coalesce(sum(posts_count), 0) FROM hashtags WHERE tag = ?', tag);
}

/** Counters as the author-stats code would hold them: mojo and average from the counts. */
function expected(c: Omit<Counters, 'mojo' | 'received_average_rating'>): Counters {
  return {
    ...c,
    received_average_rating: c.received_ratings_count ? Math.round((c.received_ratings_sum / c.received_ratings_count) * 100) / 100 : 0,
    mojo: computeMojo({
      ratingsCount: c.received_ratings_count, ratingsSum: c.received_ratings_sum, comments: c.received_comments_count,
      visits: c.received_visits, followers: c.followers_count,
    }),
  };
}

/** The body of a successful answer (200, or 201 for what it creates). */
async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const answer = await res;
  assert.ok(answer.status === 200 || answer.status === 201, `${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

describe('deleting an account that rated, commented, followed, was followed and wrote', () => {
  let server: TestServer;
  let admin: TestUser;
  let target: TestUser;
  let ana: TestUser;
  let bob: TestUser;
  let rae: TestUser;
  const posts: Record<string, any> = {};

  before(async () => {
    server = await startTestServer();
    admin = await createAdmin(server);
    [target, ana, bob, rae] = [await createUser(server, { username: 'leaving_soon' }), await createUser(server), await createUser(server), await createUser(server)];
    const png = await samplePng();
    const api = (user: TestUser, method: string, url: string, json?: unknown, body?: FormData) =>
      ok(server.api(method, url, { token: user.token, ...(body ? { body } : { json }) }));

    await ok(server.api('PUT', '/api/users/me', { token: target.token, body: multipart({}, { field: 'avatar', data: png }) }));
    posts.ana = await createPost(server, ana, { hashtags: ['jazz'] }, png);
    posts.bobRated = await createPost(server, bob, { hashtags: ['blues'] });
    posts.bobArchived = await createPost(server, bob, { hashtags: ['blues'] });
    posts.mine = await createPost(server, target, { hashtags: ['jazz', 'solo'] }, png);
    posts.mineArchived = await createPost(server, target, { hashtags: ['solo'] });
    posts.mineToo = await createPost(server, target, { hashtags: ['jazz'] });
    await api(target, 'PUT', `/api/posts/${posts.mineArchived.id}/archive`);
    // A draft carries its tags but counts nowhere: deleting it moves no hashtag.
    posts.mineDraft = await api(target, 'POST', '/api/posts', undefined, multipart({ ...articleFields({ hashtags: ['jazz', 'blues'] }), draft: 'true' }, { field: 'image', data: png }));
    assert.equal(posts.mineDraft.status, 'draft');

    // What others gave the account's articles: it goes with them, and costs the givers nothing.
    await api(ana, 'POST', `/api/posts/${posts.mine.id}/rate`, { rating: 5 });
    await api(rae, 'POST', `/api/posts/${posts.mine.id}/rate`, { rating: 3 });
    await api(ana, 'POST', `/api/posts/${posts.mine.id}/comments`, { content: 'Great piece' });

    // What the account gave others: taken back from them.
    await api(target, 'POST', `/api/posts/${posts.ana.id}/rate`, { rating: 5 });
    await api(target, 'POST', `/api/posts/${posts.bobRated.id}/rate`, { rating: 2 });
    await api(ana, 'POST', `/api/posts/${posts.bobRated.id}/rate`, { rating: 4 });
    await api(target, 'POST', `/api/posts/${posts.bobArchived.id}/rate`, { rating: 4 });
    await api(target, 'POST', `/api/posts/${posts.ana.id}/comments`, { content: 'First' });
    await api(target, 'POST', `/api/posts/${posts.ana.id}/comments`, { content: 'Second' });
    await api(ana, 'POST', `/api/posts/${posts.ana.id}/comments`, { content: 'My own reply' });
    await api(rae, 'POST', `/api/posts/${posts.ana.id}/comments`, { content: 'From Rae' });
    await api(target, 'POST', `/api/posts/${posts.bobArchived.id}/comments`, { content: 'On a soon archived one' });
    await api(bob, 'PUT', `/api/posts/${posts.bobArchived.id}/archive`);
    // Its own replies under its own article: nobody else's numbers.
    await api(target, 'POST', `/api/posts/${posts.mine.id}/comments`, { content: 'Thanks, Ana' });

    for (const [follower, followee] of [[target, ana], [target, bob], [ana, target], [rae, target], [rae, ana]] as const) {
      await api(follower, 'POST', `/api/follow/${followee.id}`);
    }
    // Reads of Ana's article: the account's own stays counted, as a visitor's would.
    await api(target, 'GET', `/api/posts/${posts.ana.id}`);
    await api(rae, 'GET', `/api/posts/${posts.ana.id}`);
    for (const to of [target, ana]) {
      await api(admin, 'POST', '/api/admin/send-notification', { user_id: to.id, subject: 'From the desk', message: `For ${to.username}` });
    }
    assert.deepEqual(await findCounterDrift(server.ctx.db), [], 'the story starts right');
  });
  after(async () => { await server.stop(); });

  test('the other users\' counters and mojo are exactly as if the account had never been', async () => {
    const before = { ana: await countersOf(server, ana.id), bob: await countersOf(server, bob.id), rae: await countersOf(server, rae.id) };
    // The story told in numbers first, so the expectations below are about something.
    assert.deepEqual(before.ana, expected({
      posts_count: 1, followers_count: 2, following_count: 1, received_visits: 2,
      received_ratings_count: 1, received_ratings_sum: 5, received_comments_count: 3,
    }));
    assert.deepEqual(before.bob, expected({
      posts_count: 1, followers_count: 1, following_count: 0, received_visits: 0,
      received_ratings_count: 2, received_ratings_sum: 6, received_comments_count: 0,
    }));
    assert.equal(before.rae.following_count, 2);
    const cachedList = await ok(server.api('GET', '/api/posts?limit=50'));
    assert.ok(cachedList.posts.some((p: any) => p.id === posts.mine.id));
    const images = [fileOf(posts.mine.image), fileOf(posts.mineDraft.image), fileOf((await ok(server.api('GET', `/api/users/${target.id}`))).avatar)];
    for (const image of images) assert.ok(uploads(server).includes(image));

    const res = await remove(server, target);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Your account has been deleted' });

    assert.deepEqual(await countersOf(server, ana.id), expected({
      posts_count: 1, followers_count: 1, following_count: 0, received_visits: 2,
      received_ratings_count: 0, received_ratings_sum: 0, received_comments_count: 1,
    }));
    assert.deepEqual(await countersOf(server, bob.id), expected({
      posts_count: 1, followers_count: 0, following_count: 0, received_visits: 0,
      received_ratings_count: 1, received_ratings_sum: 4, received_comments_count: 0,
    }));
    assert.deepEqual(await countersOf(server, rae.id), { ...before.rae, following_count: 1 });
    assert.deepEqual(await countersOf(server, admin.id), await countersOf(server, admin.id));

    assert.deepEqual(await postCounters(server, posts.ana.id), { ratings_count: 0, ratings_sum: 0, average_rating: 0, comments_count: 2, visits: 2 });
    assert.deepEqual(await postCounters(server, posts.bobRated.id), { ratings_count: 1, ratings_sum: 4, average_rating: 4, comments_count: 0, visits: 0 });
    assert.deepEqual(await postCounters(server, posts.bobArchived.id), { ratings_count: 0, ratings_sum: 0, average_rating: 0, comments_count: 0, visits: 0 });
    assert.equal(await hashtagCount(server, 'jazz'), 1);
    assert.equal(await hashtagCount(server, 'solo'), 0);
    assert.equal(await hashtagCount(server, 'blues'), 1);

    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
    const check = await cli(server.dataDir, ['check-counters']);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /All counters agree with the base tables/);

    // The answers people see say the same, the cached list included.
    const ana2 = await ok(server.api('GET', `/api/users/${ana.id}`));
    assert.equal(ana2.followers_count, 1);
    assert.equal(ana2.mojo, expected({ posts_count: 1, followers_count: 1, following_count: 0, received_visits: 2,
      received_ratings_count: 0, received_ratings_sum: 0, received_comments_count: 1 }).mojo);
    const list = await ok(server.api('GET', '/api/posts?limit=50'));
    assert.deepEqual(list.posts.map((p: any) => p.author_id).filter((id: number) => id === target.id), []);
    assert.equal(list.total, 2);
    assert.deepEqual((await ok(server.api('GET', '/api/hashtags'))).filter((h: any) => h.hashtag === 'solo'), []);
    for (const image of images) assert.ok(!uploads(server).includes(image), `${image} removed`);
    assert.ok(uploads(server).includes(fileOf(posts.ana.image)), "another author's image stays");
  });

  test('nothing of the account is left, and its sessions, name and email are gone with it', async () => {
    const db = server.ctx.db;
    const left = async (statement: string, ...params: unknown[]) => sqlNumber(db, statement, ...params);
    assert.equal(await left('SELECT count(*) FROM users WHERE id = ?', target.id), 0);
    assert.equal(await left('SELECT count(*) FROM posts WHERE author_id = ?', target.id), 0);
    assert.equal(await left('SELECT count(*) FROM comments WHERE author_id = ?', target.id), 0);
    assert.equal(await left('SELECT count(*) FROM ratings WHERE user_id = ?', target.id), 0);
    assert.equal(await left('SELECT count(*) FROM follows WHERE follower_id = ? OR followee_id = ?', target.id, target.id), 0);
    assert.equal(await left('SELECT count(*) FROM notifications WHERE user_id = ? OR created_by_id = ?', target.id, target.id), 0);
    assert.equal(await left('SELECT count(*) FROM post_visits WHERE visitor = ?', `u:${target.id}`), 0);
    const postIds = Object.values(posts).filter((p) => p.author_id === target.id).map((p) => p.id);
    for (const table of ['post_hashtags', 'post_ranks', 'post_rank_order', 'post_search', 'post_visits']) {
      assert.equal(await left(`SELECT count(*) FROM ${table} WHERE post_id IN (${postIds.join(', ')})`), 0, table);
    }
    // What the admin sent Ana stays hers; the notices of the account's follow and comments go.
    const anaNotices = await ok(server.api('GET', '/api/notifications?limit=50', { token: ana.token }));
    assert.deepEqual(anaNotices.notifications.map((n: any) => `${n.subject} (${n.created_by})`).sort(),
      [`From the desk (${admin.username})`, `New comment (${rae.username})`, `New follower (${rae.username})`]);

    assert.equal((await server.api('GET', '/api/users/me', { token: target.token })).status, 401);
    assert.equal((await server.api('GET', `/api/users/${target.id}`)).status, 404);
    assert.equal((await server.api('GET', '/api/users/by-username/leaving_soon')).status, 404);
    assert.equal((await server.api('GET', `/api/posts/${posts.mine.id}`)).status, 404);
    assert.equal((await server.api('GET', '/beatnik/leaving_soon')).status, 404);
    const search = await ok(server.api('GET', '/api/search?q=headline'));
    assert.ok(search.posts.every((p: any) => p.author_id !== target.id));
    // Deleting again with the same token: the session is gone with the account.
    assert.equal((await remove(server, target)).status, 401);

    // Name and address are free again; the new account is a new id.
    const again = await ok(server.api('POST', '/api/auth/register', {
      json: { username: 'leaving_soon', email: target.email, password: 'back again' },
    }));
    assert.ok(again.id > target.id);
    assert.equal(again.followers_count, 0);
    assert.deepEqual(await findCounterDrift(db), []);
  });
});

describe('what a deletion refuses', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.stop(); });

  /** A user with something to lose: an article with an image, a rating, a comment and a follow. */
  async function busyUser(): Promise<TestUser> {
    const user = await createUser(server);
    const other = await createUser(server);
    const post = await createPost(server, other);
    await createPost(server, user, {}, await samplePng());
    await ok(server.api('POST', `/api/posts/${post.id}/rate`, { token: user.token, json: { rating: 4 } }));
    await ok(server.api('POST', `/api/posts/${post.id}/comments`, { token: user.token, json: { content: 'Hm' } }));
    await ok(server.api('POST', `/api/follow/${other.id}`, { token: user.token }));
    return user;
  }

  for (const [name, body, status, detail] of [
    ['no password', {}, 400, 'Please enter your password'],
    ['a password that is not text', { password: 12345678 }, 400, 'Please enter your password'],
    ['a wrong password', { password: 'password124' }, 403, 'Password is incorrect'],
  ] as const) {
    test(`${name}: ${status}, and nothing changes`, async () => {
      const user = await busyUser();
      const before = await snapshot(server);
      const res = await server.api('DELETE', '/api/users/me', { token: user.token, json: body });
      assert.equal(res.status, status);
      assert.deepEqual(res.body, { detail });
      assert.deepEqual(await snapshot(server), before);
    });
  }

  test('a visitor: 401', async () => {
    const res = await server.api('DELETE', '/api/users/me', { json: { password: 'password123' } });
    assert.equal(res.status, 401);
  });

  test('the last administrator cannot leave; once there is another, they can', async () => {
    const only = await createAdmin(server);
    await createPost(server, only);
    const before = await snapshot(server);
    const res = await remove(server, only);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { detail: 'The last administrator cannot delete their account. Make another user an admin first.' });
    assert.deepEqual(await snapshot(server), before);

    const next = await createUser(server);
    await ok(server.api('POST', '/api/admin/update-user-level', { token: only.token, json: { user_id: next.id, level: 'admin' } }));
    assert.equal((await remove(server, only)).status, 200);
    assert.equal(await sqlNumber(server.ctx.db, "SELECT count(*) FROM users WHERE level = 'admin'"), 1);
  });

  test('two admins leaving at once: one goes, the other is told they are the last', async () => {
    await server.ctx.db.updateTable('users').set({ level: 'user' }).where('level', '=', 'admin').execute();
    const [first, second] = [await createAdmin(server), await createAdmin(server)];
    const answers = await Promise.all([remove(server, first), remove(server, second)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 403], JSON.stringify(answers.map((a) => a.body)));
    assert.equal(await sqlNumber(server.ctx.db, "SELECT count(*) FROM users WHERE level = 'admin'"), 1);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('a failure inside the database leaves everything as it was, files included', async () => {
    const user = await busyUser();
    const followed = await sqlNumber(server.ctx.db, 'SELECT followee_id FROM follows WHERE follower_id = ?', user.id);
    const before = await snapshot(server);
    const files = uploads(server);
    const restore = await failUpdates(server.ctx.db, 'users', 'followers_count', followed);
    try {
      const res = await remove(server, user);
      assert.equal(res.status, 500);
    } finally {
      await restore();
    }
    assert.deepEqual(await snapshot(server), before);
    assert.deepEqual(uploads(server), files);
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).status, 200, 'still signed in');
    assert.equal((await remove(server, user)).status, 200, 'and can try again');
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('an account with nothing in it goes too', async () => {
    const user = await createUser(server);
    assert.equal((await remove(server, user)).status, 200);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM users WHERE id = ?', user.id), 0);
    assert.ok(!existsSync(path.join(server.dataDir, 'uploads', 'missing')));
  });
});
