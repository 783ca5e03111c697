import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { computeMojo } from '../../server/mojo/mojo.formula.ts';
import { followPageQuery } from '../../server/follows/follows.repo.ts';
import {
  createUser, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { explain } from '../query-plan.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

const follow = (u: TestUser, id: number | string) => server.api('POST', `/api/follow/${id}`, { token: u.token });
const unfollow = (u: TestUser, id: number | string) => server.api('DELETE', `/api/follow/${id}`, { token: u.token });
const toggle = (u: TestUser, name: string) =>
  server.api('POST', `/api/users/by-username/${encodeURIComponent(name)}/follow`, { token: u.token });
const userRow = (id: number) => server.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const followRows = (followerId: number, followeeId: number) =>
  sqlNumber(server.ctx.db, 'SELECT COUNT(*) AS n FROM follows WHERE follower_id = ? AND followee_id = ?', followerId, followeeId);
const notices = (userId: number) => server.ctx.db.selectFrom('notifications').selectAll()
  .where('user_id', '=', userId).orderBy('id').execute();

/** Every user's counters against COUNT(*) over the follows table, and mojo against its formula. */
async function assertCountersMatchTable(): Promise<void> {
  const mismatches = await sqlRows(server.ctx.db, `
    SELECT * FROM (
      SELECT u.id, u.followers_count, u.following_count,
        (SELECT COUNT(*) FROM follows WHERE followee_id = u.id) AS followers,
        (SELECT COUNT(*) FROM follows WHERE follower_id = u.id) AS following
      FROM users u) counted
    WHERE followers_count <> followers OR following_count <> following`);
  assert.deepEqual(mismatches, []);
}

describe('POST /api/follow/{id} and DELETE /api/follow/{id}', () => {
  test('follow: both counters move, the response says so, the followee is notified', async () => {
    const [reader, author] = [await createUser(server), await createUser(server)];
    const res = await follow(reader, author.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { message: `You are now following ${author.username}`, following: true, followers_count: 1 });
    assert.equal(await followRows(reader.id, author.id), 1);
    const [a, r] = [await userRow(author.id), await userRow(reader.id)];
    assert.deepEqual([a.followers_count, a.following_count, r.followers_count, r.following_count], [1, 0, 0, 1]);
    assert.equal(a.mojo, computeMojo({ ratingsCount: 0, ratingsSum: 0, comments: 0, visits: 0, followers: 1 }));
    assert.ok(a.mojo > 0, 'a follower raises mojo');

    const [notice, ...rest] = await notices(author.id);
    assert.equal(rest.length, 0);
    assert.equal(notice!.type, 'other');
    assert.equal(notice!.subject, 'New follower');
    assert.equal(notice!.message, `${reader.username} started following you`);
    assert.equal(notice!.created_by, reader.username);
    assert.equal(notice!.created_by_id, reader.id);
    assert.equal(notice!.read, 0);
    assert.deepEqual(await notices(reader.id), []);
  });

  test('following twice is a 200 that changes nothing; unfollowing twice likewise', async () => {
    const [reader, author] = [await createUser(server), await createUser(server)];
    await follow(reader, author.id);
    const again = await follow(reader, author.id);
    assert.deepEqual([again.status, again.body], [200, { message: `You are already following ${author.username}`, following: true, followers_count: 1 }]);
    assert.equal(await followRows(reader.id, author.id), 1);
    assert.equal((await notices(author.id)).length, 1);

    const gone = await unfollow(reader, author.id);
    assert.deepEqual([gone.status, gone.body], [200, { message: `Unfollowed ${author.username}`, following: false, followers_count: 0 }]);
    const twice = await unfollow(reader, author.id);
    assert.deepEqual([twice.status, twice.body], [200, { message: `You are not following ${author.username}`, following: false, followers_count: 0 }]);
    const [a, r] = [await userRow(author.id), await userRow(reader.id)];
    assert.deepEqual([a.followers_count, r.following_count, a.mojo], [0, 0, 0]);
    await assertCountersMatchTable();
  });

  test('concurrent follows of the same user count once', async () => {
    const [reader, author] = [await createUser(server), await createUser(server)];
    const results = await Promise.all(Array.from({ length: 12 }, () => follow(reader, author.id)));
    assert.ok(results.every((r) => r.status === 200 && r.body.following === true));
    assert.equal(results.filter((r) => r.body.message.startsWith('You are now following')).length, 1);
    assert.equal((await userRow(author.id)).followers_count, 1);
    assert.equal((await notices(author.id)).length, 1);
    await Promise.all(Array.from({ length: 12 }, () => unfollow(reader, author.id)));
    assert.equal((await userRow(author.id)).followers_count, 0);
    await assertCountersMatchTable();
  });

  test('404 User not found for an unknown or malformed id', async () => {
    const user = await createUser(server);
    for (const id of ['999999', '0', '-3', 'abc', '1e3', '99999999999999999999']) {
      for (const res of [await follow(user, id), await unfollow(user, id)]) {
        assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }], id);
      }
    }
    assert.equal((await userRow(user.id)).following_count, 0);
  });

  // Who may follow whom: test/api/permissions.test.ts. Here, what a visitor learns of the target.
  test('a visitor is asked to sign in before the target is looked up', async () => {
    for (const [method, url] of [['POST', '/api/follow/999999'], ['DELETE', '/api/follow/0'],
      ['POST', '/api/users/by-username/nobody-at-all/follow']]) {
      const res = await server.api(method!, url!);
      assert.deepEqual([res.status, res.body], [401, { detail: 'You must sign in to follow users' }], `${method} ${url}`);
    }
    // A bad token is a bad token, not a missing one.
    const author = await createUser(server);
    const bad = await server.api('POST', `/api/follow/${author.id}`, { headers: { authorization: 'Bearer nonsense' } });
    assert.deepEqual([bad.status, bad.body], [401, { detail: 'Could not validate credentials' }]);
  });
});

describe('POST /api/users/by-username/{username}/follow', () => {
  test('toggles: follow, unfollow, follow again — by name in any case', async () => {
    const [reader, author] = [await createUser(server), await createUser(server, { username: `Toggle${Date.now()}` })];
    const on = await toggle(reader, author.username.toLowerCase());
    assert.deepEqual([on.status, on.body], [200, { message: `You are now following ${author.username}`, following: true, followers_count: 1 }]);
    const off = await toggle(reader, author.username.toUpperCase());
    assert.deepEqual([off.status, off.body], [200, { message: `Unfollowed ${author.username}`, following: false, followers_count: 0 }]);
    const onAgain = await toggle(reader, author.username);
    assert.deepEqual([onAgain.body.following, onAgain.body.followers_count], [true, 1]);
    const profile = await server.api('GET', `/api/users/${author.id}`, { token: reader.token });
    assert.deepEqual([profile.body.is_following, profile.body.followers_count], [true, 1]);
    await assertCountersMatchTable();
  });

  test('404 User not found for an unknown name', async () => {
    const user = await createUser(server);
    const res = await toggle(user, 'no-such-writer');
    assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }]);
  });
});

describe('follow notifications', () => {
  test('re-following within 24 hours does not notify again; after 24 hours it does', async () => {
    const [reader, author] = [await createUser(server), await createUser(server)];
    await follow(reader, author.id);
    await unfollow(reader, author.id);
    await toggle(reader, author.username);
    await toggle(reader, author.username);
    await follow(reader, author.id);
    assert.equal((await notices(author.id)).length, 1);

    // Another follower is told about independently.
    const other = await createUser(server);
    await follow(other, author.id);
    assert.equal((await notices(author.id)).length, 2);

    const dayAndABitAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await server.ctx.db.updateTable('notifications').set({ created_at: dayAndABitAgo })
      .where('user_id', '=', author.id).where('created_by_id', '=', reader.id).execute();
    await unfollow(reader, author.id);
    await follow(reader, author.id);
    const all = await notices(author.id);
    assert.equal(all.length, 3);
    assert.equal(all[2]!.created_by_id, reader.id);
  });
});

describe('GET /api/users/{id}/followers and /following', () => {
  let star: TestUser;
  let fans: TestUser[];
  before(async () => {
    star = await createUser(server);
    fans = [];
    for (let i = 0; i < 5; i += 1) {
      const fan = await createUser(server);
      fans.push(fan);
      assert.equal((await follow(fan, star.id)).status, 200);
    }
    await follow(star, fans[0]!.id);
    await follow(star, fans[3]!.id);
  });

  test('followers: public users, newest follow first, with followed_at and total', async () => {
    const res = await server.api('GET', `/api/users/${star.id}/followers`);
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 5);
    assert.deepEqual(res.body.followers.map((u: any) => u.id), fans.map((f) => f.id).reverse());
    const first = res.body.followers[0];
    assert.equal(first.username, fans[4]!.username);
    assert.equal(first.email, undefined);
    assert.equal(first.is_following, undefined, 'visitors get no is_following');
    assert.match(first.followed_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const times = res.body.followers.map((u: any) => u.followed_at);
    assert.deepEqual(times, [...times].sort().reverse());
  });

  test('following: whom the user follows, with total', async () => {
    const res = await server.api('GET', `/api/users/${star.id}/following`);
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.total, res.body.following.map((u: any) => u.id)], [2, [fans[3]!.id, fans[0]!.id]]);
    const fanView = await server.api('GET', `/api/users/${fans[1]!.id}/following`);
    assert.deepEqual([fanView.body.total, fanView.body.following.map((u: any) => u.id)], [1, [star.id]]);
  });

  test('skip and limit page through the list; every row once', async () => {
    const seen: number[] = [];
    for (let skip = 0; skip < 6; skip += 2) {
      const res = await server.api('GET', `/api/users/${star.id}/followers?skip=${skip}&limit=2`);
      assert.equal(res.status, 200);
      assert.equal(res.body.total, 5);
      assert.ok(res.body.followers.length <= 2);
      seen.push(...res.body.followers.map((u: any) => u.id));
    }
    assert.deepEqual(seen, fans.map((f) => f.id).reverse());
    const past = await server.api('GET', `/api/users/${star.id}/followers?skip=50`);
    assert.deepEqual([past.status, past.body.followers, past.body.total], [200, [], 5]);
  });

  test('a signed-in reader sees is_following on every listed user', async () => {
    const res = await server.api('GET', `/api/users/${star.id}/followers`, { token: star.token });
    const marks = Object.fromEntries(res.body.followers.map((u: any) => [u.id, u.is_following]));
    assert.deepEqual(marks, Object.fromEntries(fans.map((f, i) => [f.id, i === 0 || i === 3])));
    const asFan = await server.api('GET', `/api/users/${star.id}/followers`, { token: fans[1]!.token });
    // A listed user who is the reader themself is never "followed".
    assert.ok(asFan.body.followers.every((u: any) => u.is_following === false));
  });

  test('an unfollow leaves the list and lowers the total at once', async () => {
    const [a, b] = [await createUser(server), await createUser(server)];
    await follow(a, b.id);
    await unfollow(a, b.id);
    const res = await server.api('GET', `/api/users/${b.id}/followers`);
    assert.deepEqual([res.body.followers, res.body.total], [[], 0]);
  });

  test('404 for an unknown user; 400 for a bad skip or limit', async () => {
    for (const list of ['followers', 'following']) {
      for (const id of ['999999', 'abc', '-1']) {
        const res = await server.api('GET', `/api/users/${id}/${list}`);
        assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }]);
      }
      for (const query of ['skip=-1', 'skip=abc', 'limit=0', 'limit=-5', 'limit=ten', 'limit=1.5', 'skip=1&skip=2', `limit=${'9'.repeat(40)}`]) {
        const res = await server.api('GET', `/api/users/${star.id}/${list}?${query}`);
        assert.equal(res.status, 400, `${list}?${query}`);
        assert.equal(typeof res.body.detail, 'string');
      }
    }
  });

  test('limit defaults to 50 and is capped at 1000', async () => {
    const host = await createUser(server);
    const now = Date.now();
    // 1005 followers made directly in SQL: through the API this would take minutes.
    await server.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 1005; i += 1) {
        const name = `bulk${host.id}x${i}`;
        const { id } = await trx.insertInto('users').values({
          username: name, username_key: name, email: `${name}@example.com`, password_hash: 'x',
          created_at: new Date(now).toISOString(), following_count: 1,
        }).returning('id').executeTakeFirstOrThrow();
        await trx.insertInto('follows').values({ follower_id: id, followee_id: host.id, created_at: new Date(now - i * 1000).toISOString() }).execute();
      }
      await trx.updateTable('users').set({ followers_count: 1005 }).where('id', '=', host.id).execute();
    });
    const byDefault = await server.api('GET', `/api/users/${host.id}/followers`);
    assert.deepEqual([byDefault.body.followers.length, byDefault.body.total], [50, 1005]);
    assert.equal(byDefault.body.followers[0].username, `bulk${host.id}x0`);
    const capped = await server.api('GET', `/api/users/${host.id}/followers?limit=5000`);
    assert.equal(capped.body.followers.length, 1000);
    const tail = await server.api('GET', `/api/users/${host.id}/followers?skip=1000&limit=1000`);
    assert.deepEqual(tail.body.followers.map((u: any) => u.username), [1000, 1001, 1002, 1003, 1004].map((i) => `bulk${host.id}x${i}`));
    await assertCountersMatchTable();
  });

  test('the page queries walk an index of follows, with no full scan and no sort step', async () => {
    for (const direction of ['followers', 'following'] as const) {
      const query = followPageQuery(server.ctx.db, direction, star.id, { skip: 20, limit: 20 }).compile();
      const plan = await explain(server.ctx.db, query);
      const index = direction === 'followers' ? 'follows_followee' : 'follows_follower';
      assert.deepEqual(plan.steps, [
        { table: 'follows', access: 'search', index },
        { table: 'users', access: 'search', index: 'PRIMARY KEY' },
      ], plan.text);
      assert.equal(plan.sorts, false, plan.text);
    }
  });
});

describe('counters against the follows table', () => {
  test('any sequence of follow, unfollow and toggle keeps every counter equal to COUNT(*)', async () => {
    const people: TestUser[] = [];
    for (let i = 0; i < 5; i += 1) people.push(await createUser(server));
    const op = fc.tuple(fc.constantFrom('follow', 'unfollow', 'toggle'), fc.nat(4), fc.nat(4));
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
      for (const [kind, from, to] of ops) {
        const [actor, target] = [people[from]!, people[to]!];
        const res = kind === 'follow' ? await follow(actor, target.id)
          : kind === 'unfollow' ? await unfollow(actor, target.id)
          : await toggle(actor, target.username);
        if (from === to) {
          assert.equal(res.status, 400);
          continue;
        }
        assert.equal(res.status, 200);
        assert.equal(res.body.following, (await followRows(actor.id, target.id)) === 1);
        assert.equal(res.body.followers_count, (await userRow(target.id)).followers_count);
      }
      await assertCountersMatchTable();
      for (const person of people) {
        const r = await userRow(person.id);
        assert.equal(r.mojo, computeMojo({ ratingsCount: 0, ratingsSum: 0, comments: 0, visits: 0, followers: r.followers_count }));
        // At most one notice per follower, however often they toggled (all within 24 hours).
        const senders = (await notices(person.id)).map((n) => n.created_by_id);
        assert.equal(new Set(senders).size, senders.length);
      }
    }), { numRuns: 15 });
  });
});
