// The public moderation log (DESIGN.md, Moderation log): GET /api/moderation lists every admin act
// that removes content or restricts a user — article and comment deletions, bans, unbans, level
// changes — newest first, with the acting admin, the reason and the time; never an email, never
// who reported what, never an admin's private message. Each entry is written in its act's own
// transaction.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { banUser, changeUserLevel } from '../../server/admin/admin.service.ts';
import { createAdmin, createUser, failInserts, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let admin: TestUser;

before(async () => {
  server = await startTestServer();
  admin = await createAdmin(server, { username: `chief${process.pid}` });
});
after(async () => { await server.stop(); });

const as = (token: string, method: string, url: string, json?: unknown) => server.api(method, url, { token, json });
const log = async (query = '') => {
  const res = await server.api('GET', `/api/moderation${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { entries: any[]; total: number };
};
/** An entry without its id and time, for comparing. */
const plain = ({ id: _id, created_at: _at, ...rest }: any) => rest;

describe('GET /api/moderation', () => {
  test('every act that removes content or restricts a user, newest first, with the admin, the reason and the time', async () => {
    const writer = await createUser(server);
    const rude = await createUser(server);
    const promoted = await createUser(server);
    const post = await createPost(server, writer, { title: 'An article that had to go, sadly' });
    const host = await createPost(server, writer, { title: 'An article with a rude letter under it' });
    const comment = await as(rude.token, 'POST', `/api/posts/${host.id}/comments`, { content: 'Rude words.' });
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const before = (await log()).total;

    const acts: Array<[string, string, unknown?]> = [
      ['POST', '/api/admin/update-user-level', { user_id: promoted.id, level: 'admin' }],
      ['POST', '/api/admin/update-user-level', { user_id: promoted.id, level: 'user' }],
      ['DELETE', `/api/admin/delete-post/${post.id}?reason=Plagiarism`],
      ['DELETE', `/api/comments/${comment.body.id}?reason=Insults`],
      ['POST', '/api/admin/ban-user', { user_id: rude.id, ban_type: 'temporary', ban_reason: 'Insults', ban_until: until }],
      ['POST', `/api/admin/unban-user/${rude.id}`],
      ['POST', '/api/admin/ban-user', { user_id: rude.id, ban_type: 'permanent', ban_reason: 'Insults again' }],
      // A private message is nobody else's business: not in the public log.
      ['POST', '/api/admin/send-notification', { user_id: writer.id, subject: 'Between us', message: 'Please stop.' }],
    ];
    for (const [method, url, body] of acts) assert.equal((await as(admin.token, method, url, body)).status, 200, url);

    const { entries, total } = await log();
    assert.equal(total, before + 7);
    const by = admin.username;
    assert.deepEqual(entries.slice(0, 7).map(plain), [
      { action: 'ban', admin: by, user: rude.username, post_title: null, post_id: null, reason: 'Insults again', ban_until: null, target: null },
      { action: 'unban', admin: by, user: rude.username, post_title: null, post_id: null, reason: null, ban_until: null, target: null },
      { action: 'ban', admin: by, user: rude.username, post_title: null, post_id: null, reason: 'Insults', ban_until: until, target: null },
      { action: 'delete_comment', admin: by, user: rude.username, post_title: host.title, post_id: host.id, reason: 'Insults', ban_until: null, target: null },
      { action: 'delete_post', admin: by, user: writer.username, post_title: post.title, post_id: null, reason: 'Plagiarism', ban_until: null, target: null },
      { action: 'demote', admin: by, user: promoted.username, post_title: null, post_id: null, reason: null, ban_until: null, target: null },
      { action: 'promote', admin: by, user: promoted.username, post_title: null, post_id: null, reason: null, ban_until: null, target: null },
    ]);
    const times = entries.map((e) => e.created_at);
    assert.ok(times.every((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(t)));
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    assert.ok(!JSON.stringify(entries).includes('Between us'));
  });

  test('never an email, never a reporter', async () => {
    const reporter = await createUser(server, { username: `whistle${process.pid}` });
    const writer = await createUser(server);
    const post = await createPost(server, writer);
    assert.equal((await as(reporter.token, 'POST', '/api/reports', { target_type: 'post', target_id: post.id, reason: 'spam' })).status, 201);
    assert.equal((await as(admin.token, 'DELETE', `/api/admin/delete-post/${post.id}?reason=Spam`)).status, 200);
    assert.equal((await as(admin.token, 'POST', '/api/admin/ban-user', { user_id: writer.id, ban_type: 'permanent', ban_reason: 'Spam' })).status, 200);
    const res = await server.api('GET', '/api/moderation?limit=100');
    const text = JSON.stringify(res.body);
    assert.ok(!text.includes('@'), 'no email anywhere');
    for (const user of [reporter, writer, admin]) assert.ok(!text.includes(user.email));
    assert.ok(!text.includes(reporter.username), 'no reporter');
    for (const entry of res.body.entries) {
      assert.deepEqual(Object.keys(entry).sort(), ['action', 'admin', 'ban_until', 'created_at', 'id', 'post_id', 'post_title', 'reason', 'target', 'user']);
    }
  });

  test('an act at the admin CLI has no admin; names are as they are now, null once an account is gone', async () => {
    const someone = await createUser(server);
    await changeUserLevel(server.ctx, null, { userId: someone.id, level: 'admin' });
    server.ctx.readCache?.invalidate(); // written beside the API, as the CLI writes
    assert.deepEqual(plain((await log()).entries[0]), {
      action: 'promote', admin: null, user: someone.username, post_title: null, post_id: null, reason: null, ban_until: null, target: null,
    });
    const renamed = `renamed${process.pid}`;
    assert.equal((await server.api('PUT', '/api/users/me', { token: someone.token, json: { username: renamed } })).status, 200);
    assert.equal((await log()).entries[0].user, renamed);
    await changeUserLevel(server.ctx, null, { userId: someone.id, level: 'user' });
    await server.ctx.db.deleteFrom('users').where('id', '=', someone.id).execute();
    server.ctx.readCache?.invalidate();
    assert.deepEqual((await log()).entries.slice(0, 2).map((e) => e.user), [null, null]);
  });

  test("a removed comment's article is linked while readers can open it", async () => {
    const writer = await createUser(server);
    const rude = await createUser(server);
    const host = await createPost(server, writer);
    const comment = await as(rude.token, 'POST', `/api/posts/${host.id}/comments`, { content: 'Rude.' });
    assert.equal((await as(admin.token, 'DELETE', `/api/comments/${comment.body.id}?reason=Rude`)).status, 200);
    assert.equal((await log()).entries[0].post_id, host.id);
    assert.equal((await as(writer.token, 'PUT', `/api/posts/${host.id}/archive`)).status, 200);
    assert.equal((await log()).entries[0].post_id, null);
    assert.equal((await log()).entries[0].post_title, host.title);
  });

  test("an act is written with its log entry or not at all: the entry is in the act's own transaction", async () => {
    const target = await createUser(server);
    const post = await createPost(server, target);
    const reporter = await createUser(server);
    assert.equal((await as(reporter.token, 'POST', '/api/reports', { target_type: 'post', target_id: post.id, reason: 'spam' })).status, 201);
    const before = (await log()).total;
    const notices = () => server.ctx.db.selectFrom('notifications').select('id').where('user_id', 'in', [target.id, reporter.id]).execute();
    const noticesBefore = (await notices()).length;
    // The log's row is the act's last write: when it fails, the ban, the notices and the closed reports go too.
    const restore = await failInserts(server.ctx.db, 'moderation_log');
    try {
      await assert.rejects(banUser(server.ctx, { id: admin.id, username: admin.username },
        { userId: target.id, permanent: true, until: null, reason: 'Spam' }), /simulated failure/);
    } finally {
      await restore();
    }
    assert.equal((await log()).total, before);
    const row = await server.ctx.db.selectFrom('users').select(['banned_at']).where('id', '=', target.id).executeTakeFirstOrThrow();
    assert.equal(row.banned_at, null, 'not banned');
    assert.equal((await notices()).length, noticesBefore, 'nobody told');
    const open = await server.ctx.db.selectFrom('reports').select('status').where('target_id', '=', post.id).executeTakeFirstOrThrow();
    assert.equal(open.status, 'open', 'its reports stay open');
  });

  test('pages with skip and limit, a total that agrees, and refuses bad values', async () => {
    const all = await log('?limit=100');
    assert.equal(all.entries.length, Math.min(100, all.total));
    const second = await log('?skip=1&limit=2');
    assert.deepEqual(second.entries.map((e) => e.id), all.entries.slice(1, 3).map((e) => e.id));
    assert.equal(second.total, all.total);
    assert.equal((await log('?limit=500')).entries.length, Math.min(100, all.total));
    for (const query of ['?skip=-1', '?limit=0', '?limit=abc', '?skip=1&skip=2']) {
      const res = await server.api('GET', `/api/moderation${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(typeof res.body.detail, 'string');
    }
  });
});
