// The mojo ledger (DESIGN.md, Transparency; docs/mojo.md, The ledger): every change of an author's
// mojo is an event with its cause and actor, written with the change; the events add up to the
// stored mojo exactly; GET /api/users/{id}/mojo pages them, public; readers behind visits are
// never named; an account's removal keeps every sum right.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seededRandom } from '../../scripts/seed/corpus.ts';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { computeMojo } from '../../server/mojo/mojo.formula.ts';
import { createUser, letVisitsCountAgain, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

interface Event {
  id: number; at: string; delta: number; mojo_after: number; cause: string;
  post_id: number | null; post_title: string | null; actor_id: number | null; actor_username: string | null;
}

/** The user's whole ledger through the API, oldest first. */
async function ledger(userId: number): Promise<{ mojo: number; events: Event[] }> {
  const res = await server.api('GET', `/api/users/${userId}/mojo?limit=100`);
  assert.equal(res.status, 200);
  assert.ok(res.body.total <= 100, 'the test reads one page');
  return { mojo: res.body.mojo, events: [...res.body.events].reverse() };
}

/** What the user's ledger adds up to in the database, in hundredths, beside the stored mojo's. */
async function sums(userId: number): Promise<{ stored: number; ledger: number }> {
  const stored = await sqlNumber(server.ctx.db, 'SELECT CAST(round(mojo * 100) AS integer) FROM users WHERE id = ?', userId);
  const total = await sqlNumber(server.ctx.db, 'SELECT coalesce(sum(delta), 0) FROM mojo_events WHERE user_id = ?', userId);
  return { stored, ledger: total };
}

const rate = (u: TestUser, postId: number, rating: number) =>
  server.api('POST', `/api/posts/${postId}/rate`, { token: u.token, json: { rating } });
const comment = (u: TestUser, postId: number) =>
  server.api('POST', `/api/posts/${postId}/comments`, { token: u.token, json: { content: 'a comment' } });

/** Checks one new event, and that the ledger still adds up. */
async function lastEvent(authorId: number, count: number): Promise<Event> {
  const { mojo, events } = await ledger(authorId);
  assert.equal(events.length, count);
  const last = events.at(-1)!;
  assert.equal(last.mojo_after, mojo);
  const total = events.reduce((s, e) => s + Math.round(e.delta * 100), 0);
  assert.equal(total, Math.round(mojo * 100));
  return last;
}

describe('every cause writes its event', () => {
  test('ratings, comments, follows, visits, archive and deletion: cause, delta, post and actor', async () => {
    const [author, rater, commenter, follower, reader] = [
      await createUser(server), await createUser(server), await createUser(server), await createUser(server), await createUser(server)];
    const post = await createPost(server, author, { title: 'The ledger article, read closely' });
    let n = 0;
    const expectEvent = async (cause: string, actor: TestUser | null, postId: number | null, before: number) => {
      n += 1;
      const e = await lastEvent(author.id, n);
      assert.equal(e.cause, cause);
      assert.equal(e.actor_id, actor?.id ?? null);
      assert.equal(e.actor_username, actor?.username ?? null);
      assert.equal(e.post_id, postId);
      assert.equal(Math.round((e.mojo_after - before) * 100), Math.round(e.delta * 100));
      assert.ok(e.delta !== 0);
      return e;
    };
    assert.deepEqual((await ledger(author.id)).events, [], 'publishing alone earns nothing');

    assert.equal((await rate(rater, post.id, 5)).status, 200);
    let e = await expectEvent('rating_new', rater, post.id, 0);
    assert.equal(e.post_title, 'The ledger article, read closely');
    assert.equal(e.mojo_after, computeMojo({ ratingsCount: 1, ratingsSum: 5, comments: 0, visits: 0, followers: 0 }));

    assert.equal((await rate(rater, post.id, 2)).status, 200);
    e = await expectEvent('rating_changed', rater, post.id, e.mojo_after);
    assert.ok(e.delta < 0);

    const made = await comment(commenter, post.id);
    assert.equal(made.status, 201);
    e = await expectEvent('comment_new', commenter, post.id, e.mojo_after);
    assert.equal((await comment(author, post.id)).status, 201, 'own comment');
    assert.equal((await ledger(author.id)).events.length, n, 'an author\'s own comment earns nothing, and writes nothing');

    assert.equal((await server.api('DELETE', `/api/comments/${made.body.id}`, { token: commenter.token })).status, 200);
    e = await expectEvent('comment_removed', commenter, post.id, e.mojo_after);

    assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: follower.token })).status, 200);
    e = await expectEvent('follower_new', follower, null, e.mojo_after);
    assert.equal((await ledger(follower.id)).events.length, 0, 'following someone moves no mojo of one\'s own');
    assert.equal((await server.api('DELETE', `/api/follow/${author.id}`, { token: follower.token })).status, 200);
    e = await expectEvent('follower_lost', follower, null, e.mojo_after);

    assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: reader.token })).status, 200);
    e = await expectEvent('visits', null, post.id, e.mojo_after);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: author.token })).status, 200);
    assert.equal((await ledger(author.id)).events.length, n, 'the author\'s own read counts nothing');

    assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token })).status, 200);
    const archivedFrom = e.mojo_after;
    e = await expectEvent('post_removed', null, post.id, e.mojo_after);
    assert.equal(e.delta, -archivedFrom, 'what the article earned is taken back');
    assert.equal(e.post_title, null, 'an archived article is not named');
    assert.equal(e.mojo_after, 0);
    assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token })).status, 200);
    e = await expectEvent('post_removed', null, post.id, e.mojo_after);
    assert.equal(e.delta, archivedFrom, 'back from the archive: the same cause, given back');

    assert.equal((await server.api('DELETE', `/api/posts/${post.id}`, { token: author.token })).status, 200);
    e = await expectEvent('post_removed', null, post.id, e.mojo_after);
    assert.equal(e.mojo_after, 0);
    assert.deepEqual(await sums(author.id), { stored: 0, ledger: 0 });
  });

  test('a refused rating or comment writes no event', async () => {
    const [author, other] = [await createUser(server), await createUser(server)];
    const post = await createPost(server, author);
    assert.equal((await rate(author, post.id, 5)).status, 403);
    assert.equal((await rate(other, post.id, 9)).status, 400);
    assert.equal((await rate(other, 999_999, 5)).status, 404);
    assert.equal((await comment(other, 999_999)).status, 404);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM mojo_events WHERE user_id = ?', author.id), 0);
  });
});

describe('the deltas add up to the stored mojo exactly', () => {
  for (const seed of [7, 11]) {
    test(`after 150 random actions (seed ${seed})`, async () => {
      const rnd = seededRandom(seed);
      const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
      const users: TestUser[] = [];
      for (let i = 0; i < 5; i += 1) users.push(await createUser(server));
      const posts: Array<{ id: number; author: TestUser }> = [];
      const comments: Array<{ id: number; by: TestUser }> = [];
      for (let i = 0; i < 150; i += 1) {
        const action = Math.floor(rnd() * 7);
        const by = pick(users);
        if (action === 0 || posts.length === 0) {
          posts.push({ id: (await createPost(server, by)).id, author: by });
        } else if (action === 1) {
          await rate(by, pick(posts).id, 1 + Math.floor(rnd() * 5));
        } else if (action === 2) {
          const res = await comment(by, pick(posts).id);
          if (res.status === 201) comments.push({ id: res.body.id, by });
        } else if (action === 3 && comments.length) {
          const c = comments.splice(Math.floor(rnd() * comments.length), 1)[0]!;
          await server.api('DELETE', `/api/comments/${c.id}`, { token: c.by.token });
        } else if (action === 4) {
          await server.api(rnd() < 0.6 ? 'POST' : 'DELETE', `/api/follow/${pick(users).id}`, { token: by.token });
        } else if (action === 5) {
          await server.api('GET', `/api/posts/${pick(posts).id}`, { token: by.token });
          await letVisitsCountAgain(server);
        } else {
          const p = pick(posts);
          await server.api('PUT', `/api/posts/${p.id}/archive`, { token: p.author.token });
        }
      }
      for (const u of users) {
        const s = await sums(u.id);
        assert.equal(s.ledger, s.stored, `user ${u.id}`);
        const { mojo, events } = await ledger(u.id);
        let running = 0;
        for (const e of events) {
          running += Math.round(e.delta * 100);
          assert.equal(running, Math.round(e.mojo_after * 100), 'each mojo_after is the sum so far');
        }
        assert.equal(running, Math.round(mojo * 100));
      }
      assert.deepEqual(await findCounterDrift(server.ctx.db), []);
    });
  }
});

describe('GET /api/users/{id}/mojo', () => {
  test('pages newest first with a total; bad paging is a clear 400; unknown users are 404', async () => {
    const [author, ...raters] = [await createUser(server), await createUser(server), await createUser(server), await createUser(server)];
    const post = await createPost(server, author);
    for (const r of raters) assert.equal((await rate(r, post.id, 5)).status, 200);
    const all = await server.api('GET', `/api/users/${author.id}/mojo`);
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 3);
    assert.deepEqual(all.body.events.map((e: Event) => e.actor_id), raters.map((r) => r.id).reverse());
    const page = await server.api('GET', `/api/users/${author.id}/mojo?skip=1&limit=1`);
    assert.deepEqual(page.body.events.map((e: Event) => e.id), [all.body.events[1].id]);
    assert.equal(page.body.total, 3);
    assert.equal(page.body.mojo, all.body.mojo);
    assert.deepEqual(Object.keys(all.body.events[0]).sort(),
      ['actor_id', 'actor_username', 'at', 'cause', 'delta', 'id', 'mojo_after', 'post_id', 'post_title']);

    for (const [query, detail] of [
      ['skip=-1', 'skip must be a non-negative integer'], ['limit=0', 'limit must be a positive integer'],
      ['limit=abc', 'limit must be a non-negative integer'], ['skip=1.5', 'skip must be a non-negative integer'],
    ]) {
      const res = await server.api('GET', `/api/users/${author.id}/mojo?${query}`);
      assert.equal(res.status, 400, query);
      assert.deepEqual(res.body, { detail });
    }
    assert.equal((await server.api('GET', `/api/users/${author.id}/mojo?limit=1000`)).body.events.length, 3, 'limit is clamped');
    for (const id of ['999999', 'abc', '0']) {
      const res = await server.api('GET', `/api/users/${id}/mojo`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { detail: 'User not found' });
    }
  });

  test('visits never name the reader, in the API or in the table', async () => {
    const [author, reader] = [await createUser(server), await createUser(server)];
    const post = await createPost(server, author);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`, { token: reader.token })).status, 200);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`)).status, 200);
    const { events } = await ledger(author.id);
    assert.ok(events.length >= 1);
    for (const e of events) {
      assert.equal(e.cause, 'visits');
      assert.equal(e.actor_id, null);
      assert.equal(e.actor_username, null);
    }
    assert.equal(await sqlNumber(server.ctx.db,
      "SELECT count(*) FROM mojo_events WHERE cause = 'visits' AND actor_id IS NOT NULL"), 0);
  });
});

describe('account deletion', () => {
  test('the others\' ledgers take back what the account gave, its own events go, its name leaves theirs', async () => {
    const [author, leaver] = [await createUser(server), await createUser(server)];
    const post = await createPost(server, author);
    const theirs = await createPost(server, leaver);
    await rate(leaver, post.id, 5);
    await comment(leaver, post.id);
    await server.api('POST', `/api/follow/${author.id}`, { token: leaver.token });
    await rate(author, theirs.id, 4);
    const before = (await ledger(author.id)).events.length;
    assert.equal(before, 3);
    assert.ok((await ledger(leaver.id)).events.length > 0);

    const res = await server.api('DELETE', '/api/users/me', { token: leaver.token, json: { password: leaver.password } });
    assert.equal(res.status, 200);
    const { mojo, events } = await ledger(author.id);
    assert.equal(mojo, 0);
    assert.deepEqual(events.slice(before).map((e) => e.cause), ['rating_changed', 'comment_removed', 'follower_lost']);
    for (const e of events) {
      assert.equal(e.actor_id, null, 'the deleted account is named nowhere');
      assert.equal(e.actor_username, null);
    }
    assert.deepEqual(await sums(author.id), { stored: 0, ledger: 0 });
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM mojo_events WHERE user_id = ?', leaver.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM mojo_events WHERE actor_id = ?', leaver.id), 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('the account\'s export includes its own ledger, oldest first', async () => {
    const [author, rater] = [await createUser(server), await createUser(server)];
    const post = await createPost(server, author);
    await rate(rater, post.id, 4);
    await rate(rater, post.id, 5);
    const data = (await server.api('GET', '/api/users/me/export', { token: author.token })).body;
    assert.deepEqual(data.mojo_ledger.map((e: Event) => [e.cause, e.actor_id]), [['rating_new', rater.id], ['rating_changed', rater.id]]);
    const rows = await sqlRows<{ n: number }>(server.ctx.db, 'SELECT count(*) AS n FROM mojo_events WHERE user_id = ?', rater.id);
    assert.equal(Number(rows[0]!.n), 0);
    assert.deepEqual((await server.api('GET', '/api/users/me/export', { token: rater.token })).body.mojo_ledger, []);
  });
});
