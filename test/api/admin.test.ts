import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { adminUsersQuery } from '../../server/admin/admin.repo.ts';
import { changeUserLevel } from '../../server/admin/admin.service.ts';
import { createAdmin,
  banInDatabase, createUser, loginAs, sqlNumber, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { createPost } from './factories.ts';
import { explain } from '../query-plan.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

let server: TestServer;
let admin: TestUser;
let otherAdmin: TestUser;
let user: TestUser;
let tempBanned: TestUser;
let permBanned: TestUser;

before(async () => {
  server = await startTestServer();
  admin = await createAdmin(server);
  otherAdmin = await createAdmin(server);
  user = await createUser(server);
  tempBanned = await createUser(server);
  permBanned = await createUser(server);
  // Banned in the database, without an admin: the stats and the Banned tab count them.
  await banInDatabase(server, tempBanned.id, { permanent: false, days: 3, reason: 'cooling off' });
  await banInDatabase(server, permBanned.id, { permanent: true, reason: 'spam' });
});
after(async () => { await server.stop(); });

const post = (path: string, json: unknown, token = admin.token) => server.api('POST', path, { token, json });
const ban = (json: Record<string, unknown>, token = admin.token) => post('/api/admin/ban-user', json, token);
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function userRow(id: number) {
  return server.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function moderationLog(targetId: number) {
  return server.ctx.db.selectFrom('moderation_log').selectAll().where('target_user_id', '=', targetId).orderBy('id').execute();
}

async function notificationsOf(userId: number) {
  return server.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

describe('GET /api/admin/users', () => {
  test('private fields for each user, newest first, with a total', async () => {
    const tag = `lst${Date.now() % 100000}`;
    const a = await createUser(server, { username: `${tag}_a` });
    const b = await createUser(server, { username: `${tag}_b` });
    await createPost(server, a);
    const res = await server.api('GET', `/api/admin/users?search=${tag}`, { token: admin.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 2);
    assert.deepEqual(res.body.users.map((u: any) => u.username), [b.username, a.username]);
    const row = res.body.users[1];
    for (const field of ['email', 'level', 'posts_count', 'followers_count', 'mojo', 'last_login', 'is_banned', 'ban_permanent', 'ban_until', 'ban_reason']) {
      assert.ok(field in row, field);
    }
    assert.equal(row.email, a.email);
    assert.equal(row.posts_count, 1);
    assert.ok(row.last_login);
    assert.equal(JSON.stringify(res.body).includes('password'), false);
  });

  test('search matches username or email, case-insensitively, as plain text', async () => {
    const a = await createUser(server, { username: 'Zelda_Fitz', email: 'zf@jazzage.example' });
    const b = await createUser(server, { username: 'scott_f', email: 'Scott@JazzAge.example' });
    const search = async (q: string) => (await server.api('GET', `/api/admin/users?search=${encodeURIComponent(q)}`, { token: admin.token })).body;
    assert.deepEqual((await search('JAZZAGE')).users.map((u: any) => u.id), [b.id, a.id]);
    assert.deepEqual((await search('zelda_')).users.map((u: any) => u.id), [a.id]);
    assert.equal((await search('%')).total, 0);
    assert.equal((await search('no-such-person-anywhere')).total, 0);
    assert.equal((await search('  ')).total, (await search('')).total);
  });

  test('level filter: user, admin, empty for all; anything else is 400', async () => {
    const get = (q: string) => server.api('GET', `/api/admin/users?limit=100&${q}`, { token: admin.token });
    const admins = (await get('level=admin')).body;
    assert.ok(admins.users.every((u: any) => u.level === 'admin'));
    assert.ok(admins.users.some((u: any) => u.id === otherAdmin.id));
    const users = (await get('level=user')).body;
    assert.ok(users.users.every((u: any) => u.level === 'user'));
    const all = (await get('level=')).body;
    assert.equal(all.total, admins.total + users.total);
    const bad = await get('level=superuser');
    assert.deepEqual([bad.status, bad.body], [400, { detail: 'level must be one of: all, user, admin' }]);
  });

  test('skip and limit; limit clamped to 100', async () => {
    for (let i = 0; i < 3; i++) await createUser(server);
    const page = (q: string) => server.api('GET', `/api/admin/users?${q}`, { token: admin.token });
    const first = (await page('limit=2')).body;
    const second = (await page('limit=2&skip=2')).body;
    assert.equal(first.users.length, 2);
    assert.notEqual(first.users[0].id, second.users[0].id);
    assert.ok(first.users[1].id > second.users[0].id);
    await server.ctx.db.insertInto('users').values(Array.from({ length: 110 }, (_, i) => ({
      username: `bulk${i}`, username_key: `bulk${i}`, email: `bulk${i}@example.com`, password_hash: 'x', created_at: new Date().toISOString(),
    }))).execute();
    assert.equal((await page('limit=500')).body.users.length, 100);
    assert.equal((await page('')).body.users.length, 50);
  });
});

describe('GET /api/admin/stats', () => {
  test('total users, active posts and users banned right now', async () => {
    const count = (sql: string) => sqlNumber(server.ctx.db, sql);
    const author = await createUser(server);
    const p1 = await createPost(server, author);
    await createPost(server, author);
    assert.equal((await server.api('PUT', `/api/posts/${p1.id}/archive`, { token: author.token })).status, 200);
    const expired = await createUser(server);
    await banInDatabase(server, expired.id, { permanent: false, days: -1 });
    const res = await server.api('GET', '/api/admin/stats', { token: admin.token });
    assert.equal(res.status, 200);
    const now = new Date().toISOString();
    assert.deepEqual(res.body, {
      total_users: await count('SELECT count(*) AS n FROM users'),
      active_posts: await count('SELECT count(*) AS n FROM posts WHERE archived = 0'),
      banned_users: await count(`SELECT count(*) AS n FROM users WHERE banned_at IS NOT NULL AND (ban_permanent = 1 OR ban_until > '${now}')`),
    });
    assert.ok(res.body.banned_users >= 2); // the two banned roles; the expired ban does not count
    const target = await createUser(server);
    await ban({ user_id: target.id, ban_type: 'permanent', ban_reason: 'x' });
    assert.equal((await server.api('GET', '/api/admin/stats', { token: admin.token })).body.banned_users, res.body.banned_users + 1);
  });
});

describe('POST /api/admin/update-user-level', () => {
  const level = (json: unknown, token = admin.token) => post('/api/admin/update-user-level', json, token);

  test('promote and demote another user, recorded in the moderation log', async () => {
    const target = await createUser(server);
    const up = await level({ user_id: target.id, level: 'admin' });
    assert.equal(up.status, 200);
    assert.equal(up.body.message, 'User successfully promoted to admin');
    assert.equal(up.body.user.level, 'admin');
    assert.equal((await server.api('GET', '/api/admin/stats', { token: target.token })).status, 200);
    const down = await level({ user_id: String(target.id), level: 'user' });
    assert.deepEqual([down.status, down.body.message, down.body.user.level], [200, 'User successfully demoted to user', 'user']);
    assert.equal((await server.api('GET', '/api/admin/stats', { token: target.token })).status, 403);
    assert.deepEqual((await moderationLog(target.id)).map((r) => [r.action, r.admin_id]), [['promote', admin.id], ['demote', admin.id]]);
  });

  test('an admin may demote another admin', async () => {
    const a = await createAdmin(server);
    const res = await level({ user_id: a.id, level: 'user' }, otherAdmin.token);
    assert.equal(res.status, 200);
    assert.equal((await userRow(a.id)).level, 'user');
  });

  const refusals: Array<[string, () => Promise<unknown>, number, string]> = [
    ['own level', async () => ({ user_id: admin.id, level: 'user' }), 400, 'You cannot change your own level'],
    ['own level, even to admin', async () => ({ user_id: admin.id, level: 'admin' }), 400, 'You cannot change your own level'],
    ['unknown user', async () => ({ user_id: 987654321, level: 'admin' }), 404, 'User not found'],
    ['bad level', async () => ({ user_id: user.id, level: 'root' }), 400, "Level must be 'user' or 'admin'"],
    ['missing level', async () => ({ user_id: user.id }), 400, "Level must be 'user' or 'admin'"],
    ['missing user_id', async () => ({ level: 'admin' }), 400, 'user_id must be a positive integer'],
    ['user_id not a number', async () => ({ user_id: 'abc', level: 'admin' }), 400, 'user_id must be a positive integer'],
    ['user_id fractional', async () => ({ user_id: 1.5, level: 'admin' }), 400, 'user_id must be a positive integer'],
    ['already admin', async () => ({ user_id: otherAdmin.id, level: 'admin' }), 400, 'User is already an admin'],
    ['already a user', async () => ({ user_id: user.id, level: 'user' }), 400, 'User is already a regular user'],
    ['promoting a banned user', async () => ({ user_id: permBanned.id, level: 'admin' }), 400, 'A banned user cannot be promoted to admin'],
  ];
  for (const [name, body, status, detail] of refusals) {
    test(`${status} for ${name}`, async () => {
      const res = await level(await body());
      assert.deepEqual([res.status, res.body], [status, { detail }]);
    });
  }

  test('the last admin cannot be demoted (enforced in the service, e.g. from the CLI)', async () => {
    const lone = await startTestServer();
    try {
      const only = await createAdmin(lone);
      await assert.rejects(changeUserLevel(lone.ctx, null, { userId: only.id, level: 'user' }),
        { status: 400, detail: 'The last administrator cannot be demoted' });
      // With a second admin, one may demote the other; the survivor is then the last one.
      const second = await createAdmin(lone);
      const res = await lone.api('POST', '/api/admin/update-user-level', { token: second.token, json: { user_id: only.id, level: 'user' } });
      assert.equal(res.status, 200);
      await assert.rejects(changeUserLevel(lone.ctx, null, { userId: second.id, level: 'user' }), { status: 400 });
      const self = await lone.api('POST', '/api/admin/update-user-level', { token: second.token, json: { user_id: second.id, level: 'user' } });
      assert.deepEqual([self.status, self.body], [400, { detail: 'You cannot change your own level' }]);
    } finally {
      await lone.stop();
    }
  });
});

describe('POST /api/admin/ban-user', () => {
  test('a temporary ban: fields, revoked tokens, ban notice, log; the user cannot log in until unbanned', async () => {
    const target = await createUser(server);
    const versionBefore = (await userRow(target.id)).token_version;
    const res = await ban({ user_id: target.id, ban_type: 'temporary', ban_reason: '  Spamming links  ', ban_until: inDays(7) });
    assert.equal(res.status, 200);
    assert.equal(res.body.message, 'User banned for 7 days');
    const row = await userRow(target.id);
    assert.equal(row.ban_permanent, 0);
    assert.equal(row.ban_reason, 'Spamming links');
    assert.equal(row.banned_by, admin.id);
    assert.ok(row.banned_at && row.ban_until && Date.parse(row.ban_until) > Date.now() + 6.9 * DAY);
    assert.equal(row.token_version, versionBefore + 1);

    const me = await server.api('GET', '/api/users/me', { token: target.token });
    assert.equal(me.status, 403);
    assert.match(me.body.detail, /banned until .*Spamming links/);
    const login = await server.api('POST', '/api/auth/login', { json: { email: target.email, password: target.password } });
    assert.equal(login.status, 403);
    assert.match(login.body.detail, /Spamming links/);

    const [notice] = await notificationsOf(target.id);
    assert.equal(notice!.type, 'ban_notice');
    assert.equal(notice!.subject, 'Your account has been suspended');
    assert.match(notice!.message, /7 days, until .*Reason: Spamming links/);
    assert.equal(notice!.created_by, admin.username);
    assert.deepEqual((await moderationLog(target.id)).map((r) => [r.action, r.admin_id, r.reason]), [['ban', admin.id, 'Spamming links']]);

    const unban = await post(`/api/admin/unban-user/${target.id}`, undefined);
    assert.deepEqual([unban.status, unban.body.message], [200, 'User unbanned successfully']);
    // The old token stays revoked (401); a fresh login works.
    assert.equal((await server.api('GET', '/api/users/me', { token: target.token })).status, 401);
    const fresh = await loginAs(server, target.email, target.password);
    assert.equal((await server.api('GET', '/api/users/me', { token: fresh })).status, 200);
    const cleared = await userRow(target.id);
    assert.deepEqual([cleared.banned_at, cleared.ban_until, cleared.ban_reason, cleared.banned_by, cleared.ban_permanent], [null, null, null, null, 0]);
    assert.deepEqual((await moderationLog(target.id)).map((r) => r.action), ['ban', 'unban']);
  });

  test('a permanent ban; a new ban replaces the old one', async () => {
    const target = await createUser(server);
    assert.equal((await ban({ user_id: target.id, ban_reason: 'first', ban_until: inDays(2) })).body.message, 'User banned for 2 days');
    const res = await ban({ user_id: target.id, ban_type: 'permanent', ban_reason: 'second', ban_until: inDays(2) });
    assert.deepEqual([res.status, res.body.message], [200, 'User permanently banned successfully']);
    const row = await userRow(target.id);
    assert.deepEqual([row.ban_permanent, row.ban_until, row.ban_reason], [1, null, 'second']);
    assert.equal(res.body.user.ban_permanent, true);
    assert.match((await notificationsOf(target.id))[1]!.message, /permanently suspended\. Reason: second/);
  });

  test('an expired temporary ban lets the user in again', async () => {
    const target = await createUser(server);
    await ban({ user_id: target.id, ban_reason: 'short', ban_until: inDays(1) });
    assert.equal((await server.api('POST', '/api/auth/login', { json: { email: target.email, password: target.password } })).status, 403);
    await server.ctx.db.updateTable('users').set({ ban_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', target.id).execute();
    const token = await loginAs(server, target.email, target.password);
    assert.equal((await server.api('GET', '/api/users/me', { token })).status, 200);
    const unban = await post(`/api/admin/unban-user/${target.id}`, undefined);
    assert.deepEqual([unban.status, unban.body], [400, { detail: 'User is not banned' }]);
  });

  test('ban_until has slack for the client computing it from days: 23 h to 366 days', async () => {
    const cases: Array<[number, string]> = [[23.5 * HOUR, 'User banned for 1 days'], [365 * DAY - 5000, 'User banned for 365 days'], [365.9 * DAY, 'User banned for 365 days']];
    for (const [ms, message] of cases) {
      const target = await createUser(server);
      const res = await ban({ user_id: target.id, ban_type: 'temporary', ban_reason: 'r', ban_until: new Date(Date.now() + ms).toISOString() });
      assert.deepEqual([res.status, res.body.message], [200, message]);
    }
    // A plain date is accepted too.
    const target = await createUser(server);
    const date = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);
    assert.equal((await ban({ user_id: target.id, ban_reason: 'r', ban_until: date })).status, 200);
  });

  const invalid: Array<[string, Record<string, unknown>, number, string]> = [
    ['no reason', { ban_type: 'permanent' }, 400, 'Please complete all fields'],
    ['blank reason', { ban_type: 'permanent', ban_reason: '   ' }, 400, 'Please complete all fields'],
    ['reason not text', { ban_type: 'permanent', ban_reason: 42 }, 400, 'Please complete all fields'],
    ['temporary without an end', { ban_type: 'temporary', ban_reason: 'x' }, 400, 'Please complete all fields'],
    ['no type and no end', { ban_reason: 'x' }, 400, 'Please complete all fields'],
    ['reason too long', { ban_type: 'permanent', ban_reason: 'r'.repeat(501) }, 400, 'Ban reason cannot exceed 500 characters'],
    ['unknown ban type', { ban_type: 'forever', ban_reason: 'x' }, 400, "ban_type must be 'temporary' or 'permanent'"],
    ['end not a date', { ban_reason: 'x', ban_until: 'next tuesday' }, 400, 'ban_until must be a valid ISO 8601 date'],
    ['end an impossible date', { ban_reason: 'x', ban_until: '2026-02-31T00:00:00Z' }, 400, 'ban_until must be a valid ISO 8601 date'],
    ['end not text', { ban_reason: 'x', ban_until: 12345 }, 400, 'Please complete all fields'],
    ['end within a day', { ban_reason: 'x', ban_until: new Date(Date.now() + 2 * HOUR).toISOString() }, 400, 'The ban must end between 1 and 365 days from now'],
    ['end in the past', { ban_reason: 'x', ban_until: '2020-01-01T00:00:00Z' }, 400, 'The ban must end between 1 and 365 days from now'],
    ['end beyond a year', { ban_reason: 'x', ban_until: new Date(Date.now() + 400 * DAY).toISOString() }, 400, 'The ban must end between 1 and 365 days from now'],
  ];
  for (const [name, body, status, detail] of invalid) {
    test(`${status} for ${name}, nothing changes`, async () => {
      const target = await createUser(server);
      const res = await ban({ user_id: target.id, ...body });
      assert.deepEqual([res.status, res.body], [status, { detail }]);
      const row = await userRow(target.id);
      assert.equal(row.banned_at, null);
      assert.equal(row.token_version, 0);
      assert.equal((await notificationsOf(target.id)).length, 0);
    });
  }

  test('oneself 400, an admin 403, an unknown user 404', async () => {
    const self = await ban({ user_id: admin.id, ban_type: 'permanent', ban_reason: 'x' });
    assert.deepEqual([self.status, self.body], [400, { detail: 'You cannot ban yourself' }]);
    const other = await ban({ user_id: otherAdmin.id, ban_type: 'permanent', ban_reason: 'x' });
    assert.deepEqual([other.status, other.body], [403, { detail: 'Administrators cannot be banned' }]);
    assert.equal((await userRow(otherAdmin.id)).banned_at, null);
    const unknown = await ban({ user_id: 987654321, ban_type: 'permanent', ban_reason: 'x' });
    assert.deepEqual([unknown.status, unknown.body], [404, { detail: 'User not found' }]);
  });
});

describe('POST /api/admin/unban-user/{id}', () => {
  test('404 for unknown or malformed ids, 400 for a user who is not banned', async () => {
    for (const id of ['987654321', 'abc', '0', '-3']) {
      const res = await post(`/api/admin/unban-user/${id}`, undefined);
      assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }], id);
    }
    const res = await post(`/api/admin/unban-user/${user.id}`, undefined);
    assert.deepEqual([res.status, res.body], [400, { detail: 'User is not banned' }]);
  });
});

describe('GET /api/admin/banned-users', () => {
  test('only users banned now, newest ban first, with the time remaining', async () => {
    const temp = await createUser(server);
    const perm = await createUser(server);
    const expired = await createUser(server);
    await ban({ user_id: temp.id, ban_reason: 'temp', ban_until: new Date(Date.now() + 3 * DAY + 4 * HOUR + 60_000).toISOString() });
    await ban({ user_id: perm.id, ban_type: 'permanent', ban_reason: 'perm' });
    await ban({ user_id: expired.id, ban_reason: 'old', ban_until: inDays(1) });
    await server.ctx.db.updateTable('users').set({ ban_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expired.id).execute();

    const res = await server.api('GET', '/api/admin/banned-users?limit=100', { token: admin.token });
    assert.equal(res.status, 200);
    const ids = res.body.banned_users.map((b: any) => b.id);
    assert.ok(!ids.includes(expired.id));
    assert.deepEqual(ids.slice(0, 2), [perm.id, temp.id]);
    const now = new Date().toISOString();
    assert.equal(res.body.total, await sqlNumber(server.ctx.db, 'SELECT count(*) AS n FROM users WHERE banned_at IS NOT NULL AND (ban_permanent = 1 OR ban_until > ?)', now));
    assert.ok(res.body.total <= 100 && ids.length === res.body.total);
    const t = res.body.banned_users.find((b: any) => b.id === temp.id);
    assert.deepEqual(
      { ...t, banned_at: typeof t.banned_at, ban_until: typeof t.ban_until, time_remaining_seconds: t.time_remaining_seconds > 3 * 86400 },
      { id: temp.id, username: temp.username, email: temp.email, ban_permanent: false, ban_reason: 'temp', ban_until: 'string',
        banned_at: 'string', banned_by: admin.username, time_remaining: '3 days, 4 hours', time_remaining_seconds: true },
    );
    const p = res.body.banned_users.find((b: any) => b.id === perm.id);
    assert.deepEqual([p.ban_permanent, p.ban_until, p.time_remaining, p.time_remaining_seconds], [true, null, 'Permanent', null]);
    // The two banned roles, banned in the database without an admin.
    assert.equal(res.body.banned_users.find((b: any) => b.id === permBanned.id).banned_by, null);
    const page = await server.api('GET', '/api/admin/banned-users?limit=1&skip=1', { token: admin.token });
    assert.deepEqual(page.body.banned_users.map((b: any) => b.id), [ids[1]]);
  });
});

describe('POST /api/admin/send-notification', () => {
  const send = (json: unknown) => post('/api/admin/send-notification', json);

  test('a general notification from the admin', async () => {
    const target = await createUser(server);
    const res = await send({ user_id: target.id, subject: '  Welcome  ', message: ' Glad to have you. ', notification_type: 'general' });
    assert.deepEqual([res.status, res.body], [200, { message: 'Notification sent successfully' }]);
    const list = await server.api('GET', '/api/notifications', { token: target.token });
    const [n] = list.body.notifications;
    assert.deepEqual([n.type, n.subject, n.message, n.created_by, n.read], ['general', 'Welcome', 'Glad to have you.', admin.username, false]);
    assert.equal(list.body.unread_count, 1);
    // Admins can write to other admins too (a message, not a moderation action).
    assert.equal((await send({ user_id: otherAdmin.id, subject: 's', message: 'm' })).status, 200);
  });

  const invalid: Array<[string, Record<string, unknown>, number, string]> = [
    ['no subject', { message: 'm' }, 400, 'Please complete all fields'],
    ['blank message', { subject: 's', message: '   ' }, 400, 'Please complete all fields'],
    ['subject not text', { subject: ['s'], message: 'm' }, 400, 'Please complete all fields'],
    ['subject too long', { subject: 's'.repeat(201), message: 'm' }, 400, 'Subject cannot exceed 200 characters'],
    ['message too long', { subject: 's', message: 'm'.repeat(2001) }, 400, 'Message cannot exceed 2000 characters'],
    ['another type', { subject: 's', message: 'm', notification_type: 'ban_notice' }, 400, "notification_type must be 'general'"],
  ];
  for (const [name, body, status, detail] of invalid) {
    test(`${status} for ${name}`, async () => {
      const target = await createUser(server);
      const res = await send({ user_id: target.id, ...body });
      assert.deepEqual([res.status, res.body], [status, { detail }]);
      assert.equal((await notificationsOf(target.id)).length, 0);
    });
  }

  test('404 for an unknown user', async () => {
    const res = await send({ user_id: 987654321, subject: 's', message: 'm' });
    assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }]);
  });
});

describe('junk input never gives a 5xx', () => {
  test('bad paging and filters are 400', async () => {
    for (const path of ['/api/admin/users', '/api/admin/banned-users']) {
      for (const query of ['skip=-1', 'skip=abc', 'limit=0', 'limit=-5', 'limit=2.5', 'limit=1e2', 'skip=1&skip=2', 'limit=99999999999']) {
        const res = await server.api('GET', `${path}?${query}`, { token: admin.token });
        assert.equal(res.status, 400, `${path}?${query}`);
        assert.equal(typeof res.body.detail, 'string');
      }
    }
    const repeated = await server.api('GET', '/api/admin/users?search=a&search=b', { token: admin.token });
    assert.equal(repeated.status, 400);
    const huge = await server.api('GET', `/api/admin/users?search=${'x'.repeat(5000)}`, { token: admin.token });
    assert.deepEqual([huge.status, huge.body.total], [200, 0]);
  });

  test('random bodies for every admin write get a 2xx or a 4xx with a detail', async () => {
    // user_id never names a real user here, so nobody is actually banned or promoted.
    const junk = fc.oneof(fc.string({ maxLength: 40 }).filter((t) => !/^\s*\d+\s*$/.test(t)),
      fc.integer({ min: -1000, max: 0 }), fc.integer({ min: 10_000_000 }), fc.double().filter((d) => !Number.isInteger(d)), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 1 }),
      fc.constant('x'.repeat(3000)), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
    const body = fc.record({
      user_id: junk, level: junk, ban_type: fc.oneof(junk, fc.constantFrom('temporary', 'permanent')),
      ban_reason: junk, ban_until: junk, subject: junk, message: junk, notification_type: junk,
    }, { requiredKeys: [] });
    const paths = ['/api/admin/update-user-level', '/api/admin/ban-user', '/api/admin/send-notification'];
    await fc.assert(fc.asyncProperty(fc.oneof(body, fc.jsonValue()), fc.constantFrom(...paths), async (json, path) => {
      const res = await post(path, json);
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} for ${path} ${JSON.stringify(json)}`);
      assert.equal(typeof res.body.detail, 'string');
    }), { numRuns: 200 });
    const banned = await server.api('GET', '/api/admin/banned-users?limit=100', { token: admin.token });
    assert.ok(banned.body.banned_users.every((b: any) => b.ban_reason !== null));
  });
});

describe('query plans', () => {
  const plan = (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => explain(server.ctx.db, query.compile());

  test('the admin users page reads users_level for a level, and the primary key in order otherwise (no sort)', async () => {
    const byLevel = await plan(adminUsersQuery(server.ctx.db, { level: 'admin' }, { skip: 0, limit: 50 }));
    assert.ok(byLevel.steps.some((s) => s.table === 'users' && s.access === 'search' && s.index === 'users_level'), byLevel.text);
    assert.equal(byLevel.sorts, false, byLevel.text);
    const all = await plan(adminUsersQuery(server.ctx.db, {}, { skip: 0, limit: 50 }));
    assert.equal(all.sorts, false, all.text);
  });
});

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The end as people read it, written out by hand from the stored ISO time. */
function readable(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

// What a banned user reads (DESIGN.md, Edges: dates people read are human): the 403 on every
// signed-in request, the refused login and the ban notice give the reason and the end as
// '12 December 2026, 10:00 UTC', never an ISO string.
describe('the ban sentence', () => {
  test('a temporary ban: reason and a human end date, on requests, at login and in the notice', async () => {
    const target = await createUser(server);
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    assert.equal((await ban({ user_id: target.id, ban_type: 'temporary', ban_reason: 'Spam in the comments', ban_until: until })).status, 200);
    const expected = `Your account is banned until ${readable(until)}. Reason: Spam in the comments`;

    const me = await server.api('GET', '/api/users/me', { token: target.token });
    assert.deepEqual([me.status, me.body], [403, { detail: expected }]);
    const poll = await server.api('GET', '/api/notifications?limit=1&unread_only=true', { token: target.token });
    assert.deepEqual([poll.status, poll.body], [403, { detail: expected }]);
    const login = await server.api('POST', '/api/auth/login', { json: { email: target.email, password: target.password } });
    assert.deepEqual([login.status, login.body], [403, { detail: expected }]);

    const [notice] = await server.ctx.db.selectFrom('notifications').select('message')
      .where('user_id', '=', target.id).where('type', '=', 'ban_notice').execute();
    assert.equal(notice!.message, `Your account has been suspended for 7 days, until ${readable(until)}. Reason: Spam in the comments`);
    for (const text of [expected, notice!.message]) assert.doesNotMatch(text, ISO);
  });

  test('a permanent ban says so, with the reason', async () => {
    const target = await createUser(server);
    assert.equal((await ban({ user_id: target.id, ban_type: 'permanent', ban_reason: 'Repeated abuse' })).status, 200);
    const me = await server.api('GET', '/api/users/me', { token: target.token });
    assert.deepEqual([me.status, me.body], [403, { detail: 'Your account has been permanently banned. Reason: Repeated abuse' }]);
  });
});
