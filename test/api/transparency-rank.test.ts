// The scores explain themselves (DESIGN.md, Transparency; issue 17 parts 1–2), on either
// database: the bayesian rating with the m of the last refresh, the rating histogram, and
// GET /api/posts/{id}/rank from what the refresh stored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { scoreOfParts } from '../../server/ranks/ranks.score.ts';
import { rebuildRanks } from '../../server/sqlite/sqlite.ranks-rebuild.ts';
import { createUser, multipart, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { onPostgres } from '../postgres-databases.ts';
import { articleFields, createPost } from './factories.ts';

const NOT_RANKED = { detail: 'This article is not ranked on The Pulse' };
const HOUR = 3_600_000;

let server: TestServer;
let author: TestUser;
let raters: TestUser[];
/** One 5★; twenty averaging 4.5 (ten 5★, ten 4★); twenty 2★ (they bring m down to a usual level). */
let single: any;
let many: any;
let poor: any;

const bayes = (sum: number, n: number, m: number) => (5 * m + sum) / (5 + n);
const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-4, `${what}: ${actual} ≠ ${expected}`);

async function refresh(now = Date.now()): Promise<number> {
  await recomputeRanks(server.ctx.db, now);
  server.ctx.readCache?.invalidate();
  return now;
}

before(async () => {
  server = await startTestServer();
  author = await createUser(server);
  raters = [];
  for (let i = 0; i < 20; i += 1) raters.push(await createUser(server));
  single = await createPost(server, author);
  many = await createPost(server, author);
  poor = await createPost(server, author);
  const rate = async (post: any, user: TestUser, rating: number) => {
    const res = await server.api('POST', `/api/posts/${post.id}/rate`, { token: user.token, json: { rating } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  await rate(single, raters[0]!, 5);
  for (const [i, user] of raters.entries()) {
    await rate(many, user, i < 10 ? 5 : 4);
    await rate(poor, user, 2);
  }
});
after(async () => { await server.stop(); });

test('bayesian rating: m stays that of the last refresh, and a refresh measures it anew', async () => {
  // The start's refresh found nothing rated: m = 3.
  const before = await server.api('GET', `/api/posts/${single.id}`);
  assert.equal(before.body.average_rating, 5);
  close(before.body.bayesian_rating, bayes(5, 1, 3), 'one 5★ with m = 3');
  await refresh();
  const m = (5 + 90 + 40) / 41;
  close(Number((await sqlRows<{ rating_mean: number }>(server.ctx.db, 'SELECT rating_mean FROM rank_refresh'))[0]!.rating_mean), m, 'm');
  for (const [post, sum, n] of [[single, 5, 1], [many, 90, 20], [poor, 40, 20]] as const) {
    const res = await server.api('GET', `/api/posts/${post.id}`);
    assert.equal(res.body.ratings_count, n);
    close(res.body.bayesian_rating, bayes(sum, n, m), `post ${post.id}`);
  }
  // Every post object carries it: lists too.
  const list = await server.api('GET', `/api/users/${author.id}/posts?sort_by=best_rated`);
  assert.deepEqual(list.body.posts.map((p: any) => p.id), [many.id, single.id, poor.id], 'twenty 4.5s beat one 5★');
  close(list.body.posts[0].bayesian_rating, bayes(90, 20, m), 'in a list');
  const lowest = await server.api('GET', `/api/users/${author.id}/posts?sort_by=lowest_rated`);
  assert.deepEqual(lowest.body.posts.map((p: any) => p.id), [poor.id, single.id, many.id]);
  for (const p of (await server.api('GET', '/api/ranks')).body.posts) assert.equal(typeof p.bayesian_rating, 'number');
});

test('rating histogram: counts of each star, and a fresh rating moves the post\'s own numbers at once', async () => {
  assert.deepEqual((await server.api('GET', `/api/posts/${many.id}`)).body.rating_histogram, [0, 0, 0, 10, 10]);
  assert.deepEqual((await server.api('GET', `/api/posts/${single.id}`)).body.rating_histogram, [0, 0, 0, 0, 1]);
  const unrated = await createPost(server, author);
  assert.deepEqual((await server.api('GET', `/api/posts/${unrated.id}`)).body.rating_histogram, [0, 0, 0, 0, 0]);
  const m = (await sqlRows<{ rating_mean: number }>(server.ctx.db, 'SELECT rating_mean FROM rank_refresh'))[0]!.rating_mean;
  // A 4★ becomes a 1★: the answer to the rating and the next read agree, with the same m.
  const rated = await server.api('POST', `/api/posts/${many.id}/rate`, { token: raters[19]!.token, json: { rating: 1 } });
  assert.equal(rated.status, 200);
  close(rated.body.bayesian_rating, bayes(87, 20, m), 'the rating\'s answer');
  const read = await server.api('GET', `/api/posts/${many.id}`);
  assert.deepEqual(read.body.rating_histogram, [1, 0, 0, 9, 10]);
  assert.equal(read.body.ratings_count, 20);
  assert.equal(read.body.average_rating, 4.35);
  close(read.body.bayesian_rating, bayes(87, 20, m), 'read again');
  // Only on the one article.
  assert.equal((await server.api('GET', '/api/posts')).body.posts[0].rating_histogram, undefined);
  await server.api('POST', `/api/posts/${many.id}/rate`, { token: raters[19]!.token, json: { rating: 4 } });
});

test('rank: position, score, parts and times as the refresh stored them; the parts give the score', async () => {
  const now = await refresh(Date.now() - 2 * HOUR);
  const pulse = await server.api('GET', '/api/ranks');
  assert.equal(pulse.body.refreshed_at, new Date(now).toISOString());
  assert.equal(pulse.body.next_refresh_at, new Date(now + 24 * HOUR).toISOString());
  const ids = pulse.body.posts.map((p: any) => p.id);
  for (const post of [single, many, poor]) {
    const res = await server.api('GET', `/api/posts/${post.id}/rank`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rank = res.body;
    assert.deepEqual(Object.keys(rank).sort(), ['age_hours', 'decay', 'next_refresh_at', 'parts', 'position', 'refreshed_at', 'score']);
    assert.equal(rank.position, ids.indexOf(post.id) + 1, 'its place in The Pulse');
    const [stored] = await sqlRows<{ score: number }>(server.ctx.db, 'SELECT score FROM post_ranks WHERE post_id = ?', post.id);
    assert.equal(rank.score, stored!.score);
    assert.equal(scoreOfParts({ ...rank.parts, decay: rank.decay }), rank.score, 'recomputed from the parts');
    assert.equal(rank.refreshed_at, new Date(now).toISOString());
    assert.equal(rank.next_refresh_at, new Date(now + 24 * HOUR).toISOString());
    assert.ok(rank.age_hours >= 0 && rank.age_hours < 1, `scored at the refresh's moment: ${rank.age_hours}`);
  }
  const rank = (await server.api('GET', `/api/posts/${poor.id}/rank`)).body;
  close(rank.parts.ratings, Math.log1p(20) * (1 + 2 * ((40 + 15) / 25 - 3)), 'twenty 2★ pull down');
  assert.equal(rank.parts.comments, 0);
});

test('rank: 404 when unranked — unknown, a draft, archived or deleted', async () => {
  const draft = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ title: 'A draft, not ranked yet', draft: 'true' }) });
  assert.equal(draft.status, 201);
  const archived = await createPost(server, author);
  const deleted = await createPost(server, author);
  await refresh();
  assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token })).status, 200);
  assert.equal((await server.api('DELETE', `/api/posts/${deleted.id}`, { token: author.token })).status, 200);
  for (const [what, id] of [['unknown', 99_999], ['not an id', 'abc'], ['draft', draft.body.id], ['archived', archived.id],
    ['deleted', deleted.id]] as const) {
    const res = await server.api('GET', `/api/posts/${id}/rank`);
    assert.equal(res.status, 404, what);
    assert.deepEqual(res.body, NOT_RANKED, what);
  }
});

test('rank: an article published since the refresh has the place The Pulse lists it at, and those below it move down', async () => {
  const draft = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ title: 'A draft published later', draft: 'true' }) });
  assert.equal(draft.status, 201);
  const now = await refresh();
  // Read (and kept in the read cache) before the publications: they must move it.
  const lowest = (await server.api('GET', `/api/posts/${poor.id}/rank`)).body.position;
  const fresh = await createPost(server, author);
  const published = await server.api('POST', `/api/posts/${draft.body.id}/publish`, { token: author.token, body: multipart(articleFields()) });
  assert.equal(published.status, 200, JSON.stringify(published.body));
  const pulse = await server.api('GET', '/api/ranks?limit=100');
  const ids: number[] = pulse.body.posts.map((p: any) => p.id);
  for (const id of [fresh.id, draft.body.id]) {
    const at = ids.indexOf(id);
    assert.ok(at > 0 && at < ids.length - 1, `listed among the others, not only at an end: ${at} of ${ids.length}`);
  }
  const positions = await Promise.all(ids.map(async (id) => {
    const res = await server.api('GET', `/api/posts/${id}/rank`);
    assert.equal(res.status, 200, `${id}: ${JSON.stringify(res.body)}`);
    return res.body.position;
  }));
  assert.deepEqual(positions, ids.map((_, i) => i + 1), 'each at its place in The Pulse');
  assert.equal((await server.api('GET', `/api/posts/${poor.id}/rank`)).body.position, lowest + 2, 'below both');
  // Scored as it was published: nothing earned, no age; the parts still give the score.
  const rank = (await server.api('GET', `/api/posts/${fresh.id}/rank`)).body;
  assert.deepEqual(rank.parts, { visits: 0, ratings: 0, comments: 0 });
  assert.equal(rank.decay, 1);
  assert.equal(rank.age_hours, 0);
  assert.equal(scoreOfParts({ ...rank.parts, decay: rank.decay }), rank.score);
  const [stored] = await sqlRows<{ score: number }>(server.ctx.db, 'SELECT score FROM post_ranks WHERE post_id = ?', fresh.id);
  assert.equal(rank.score, stored!.score);
  assert.equal(rank.refreshed_at, new Date(now).toISOString());
  // Archived, it leaves The Pulse and has no rank; the next refresh places it with the rest.
  assert.equal((await server.api('PUT', `/api/posts/${draft.body.id}/archive`, { token: author.token })).status, 200);
  assert.equal((await server.api('GET', `/api/posts/${draft.body.id}/rank`)).status, 404);
  assert.equal((await server.api('GET', `/api/posts/${poor.id}/rank`)).body.position, lowest + 1, 'below the one left');
  await refresh();
  assert.equal((await server.api('GET', `/api/posts/${fresh.id}/rank`)).body.position, ids.indexOf(fresh.id) + 1, 'placed by the next refresh');
});

test('the SQLite refresh (in short transactions) stores m, the parts and the positions alike', { skip: onPostgres && 'SQLite only' }, async () => {
  const now = Date.now();
  const result = await rebuildRanks(server.ctx.db, () => true, now);
  assert.equal(result.complete, true);
  server.ctx.readCache?.invalidate();
  const pulse = await server.api('GET', '/api/ranks?limit=100');
  assert.equal(pulse.body.refreshed_at, new Date(now).toISOString());
  const positions = await Promise.all(pulse.body.posts.map(async (p: any) => (await server.api('GET', `/api/posts/${p.id}/rank`)).body.position));
  assert.deepEqual(positions, pulse.body.posts.map((_: any, i: number) => i + 1));
  const [row] = await sqlRows<{ rating_mean: number }>(server.ctx.db, 'SELECT rating_mean FROM rank_refresh');
  close(row!.rating_mean, (5 + 90 + 40) / 41, 'm');
});
