import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { notificationsPageQuery } from '../../server/notifications/notifications.repo.ts';
import { createAdmin, createUser, withTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { explain, type QueryPlan } from '../query-plan.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let admin: TestUser;
withTestServer(async (started) => {
  server = started;
  admin = await createAdmin(server);
});

/** An admin's message to the user, through the API. */
async function notify(user: TestUser, subject: string, message = `About ${subject}`): Promise<void> {
  const res = await server.api('POST', '/api/admin/send-notification', {
    token: admin.token, json: { user_id: user.id, subject, message, notification_type: 'general' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

const list = (user: TestUser, query = '') => server.api('GET', `/api/notifications${query}`, { token: user.token });
const markRead = (user: TestUser, id: number | string) => server.api('POST', `/api/notifications/${id}/mark-read`, { token: user.token });

async function readFlag(id: number): Promise<number> {
  const row = await server.ctx.db.selectFrom('notifications').select('read').where('id', '=', id).executeTakeFirstOrThrow();
  return row.read;
}

describe('GET /api/notifications', () => {
  test('own notifications, newest first, with every field; total and unread_count', async () => {
    const user = await createUser(server);
    const other = await createUser(server);
    await notify(user, 'first');
    await notify(user, 'second');
    await notify(other, 'not yours');
    const res = await list(user);
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 2);
    assert.equal(res.body.unread_count, 2);
    assert.deepEqual(res.body.notifications.map((n: any) => n.subject), ['second', 'first']);
    const [n] = res.body.notifications;
    assert.deepEqual(Object.keys(n).sort(), ['created_at', 'created_by', 'id', 'message', 'post_id', 'post_title', 'read', 'subject', 'type']);
    assert.equal(n.type, 'general');
    assert.equal(n.message, 'About second');
    assert.equal(n.read, false);
    assert.equal(n.created_by, admin.username);
    assert.equal(n.post_id, null);
    assert.equal(n.post_title, null);
    assert.match(n.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('a comment on your article: type other, with the post, the commenter as created_by', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author, { title: 'Notes from the jazz cellar, 1959' });
    const res = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'Lovely piece' } });
    assert.equal(res.status, 201);
    const [n] = (await list(author)).body.notifications;
    assert.equal(n.type, 'other');
    assert.equal(n.created_by, reader.username);
    assert.equal(n.post_id, post.id);
    assert.equal(n.post_title, 'Notes from the jazz cellar, 1959');
  });

  test("created_by follows the actor's current username", async () => {
    const user = await createUser(server);
    const sender = await createAdmin(server);
    await server.api('POST', '/api/admin/send-notification', { token: sender.token, json: { user_id: user.id, subject: 's', message: 'm' } });
    await server.ctx.db.updateTable('users').set({ username: `${sender.username}_new`, username_key: `${sender.username}_new`.toLowerCase() })
      .where('id', '=', sender.id).execute();
    assert.equal((await list(user)).body.notifications[0].created_by, `${sender.username}_new`);
  });

  test('a deleted post keeps its title on the notification; post_id becomes null', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author, { title: 'An article an admin will remove' });
    const del = await server.api('DELETE', `/api/admin/delete-post/${post.id}?reason=Off%20topic`, { token: admin.token });
    assert.equal(del.status, 200);
    const [n] = (await list(author)).body.notifications;
    assert.equal(n.type, 'post_deleted');
    assert.equal(n.post_title, 'An article an admin will remove');
    assert.equal(n.post_id, null);
  });

  test('unread_only: only unread, total of the filtered list, unread_count of all', async () => {
    const user = await createUser(server);
    for (const s of ['a', 'b', 'c']) await notify(user, s);
    const all = (await list(user)).body;
    assert.equal((await markRead(user, all.notifications[1].id)).status, 200);
    for (const flag of ['true', '1']) {
      const res = await list(user, `?unread_only=${flag}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.notifications.map((n: any) => n.subject), ['c', 'a']);
      assert.equal(res.body.total, 2);
      assert.equal(res.body.unread_count, 2);
    }
    const everything = (await list(user, '?unread_only=false')).body;
    assert.equal(everything.total, 3);
    assert.deepEqual(everything.notifications.map((n: any) => n.read), [false, true, false]);
  });

  test('skip and limit page through; limit defaults to 20 and is clamped to 100', async () => {
    const user = await createUser(server);
    // Many rows at once: the API makes one per call, the page logic is what is tested here.
    await server.ctx.db.insertInto('notifications').values(Array.from({ length: 105 }, (_, i) => ({
      user_id: user.id, type: 'general' as const, subject: `n${i}`, message: 'm',
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }))).execute();
    const first = (await list(user)).body;
    assert.equal(first.notifications.length, 20);
    assert.equal(first.total, 105);
    assert.equal(first.notifications[0].subject, 'n104');
    const page = (await list(user, '?skip=100&limit=10')).body;
    assert.deepEqual(page.notifications.map((n: any) => n.subject), ['n4', 'n3', 'n2', 'n1', 'n0']);
    assert.equal((await list(user, '?limit=1000')).body.notifications.length, 100);
  });

  test('400 for bad paging or flags', async () => {
    const user = await createUser(server);
    for (const query of ['?skip=-1', '?skip=abc', '?limit=0', '?limit=-5', '?limit=1.5', '?limit=1e3', '?skip=1&skip=2',
      '?unread_only=maybe', '?skip=99999999999']) {
      const res = await list(user, query);
      assert.equal(res.status, 400, query);
      assert.equal(typeof res.body.detail, 'string');
    }
  });
});

// Whose notifications one may read and mark: test/api/permissions.test.ts.
describe('POST /api/notifications/{id}/mark-read and mark-all-read', () => {
  test('marks one read and returns the new unread_count; idempotent', async () => {
    const user = await createUser(server);
    await notify(user, 'one');
    await notify(user, 'two');
    const [newest] = (await list(user)).body.notifications;
    const res = await markRead(user, newest.id);
    assert.deepEqual([res.status, res.body], [200, { message: 'Notification marked as read', unread_count: 1 }]);
    const again = await markRead(user, newest.id);
    assert.deepEqual([again.status, again.body], [200, { message: 'Notification marked as read', unread_count: 1 }]);
    assert.equal(await readFlag(newest.id), 1);
  });

  test('unknown or malformed ids are 404', async () => {
    const user = await createUser(server);
    for (const id of ['999999999', '0', '-1', 'abc', '1.5', '99999999999999999999']) {
      const res = await markRead(user, id);
      assert.deepEqual([res.status, res.body], [404, { detail: 'Notification not found' }], id);
    }
  });

  test('mark-all-read clears the count; unread_count never goes below zero', async () => {
    const user = await createUser(server);
    for (const s of ['x', 'y', 'z']) await notify(user, s);
    const ids = (await list(user)).body.notifications.map((n: any) => n.id);
    await markRead(user, ids[0]);
    const all = await server.api('POST', '/api/notifications/mark-all-read', { token: user.token });
    assert.deepEqual([all.status, all.body], [200, { message: 'All notifications marked as read', unread_count: 0 }]);
    const twice = await server.api('POST', '/api/notifications/mark-all-read', { token: user.token });
    assert.equal(twice.body.unread_count, 0);
    for (const id of ids) assert.equal((await markRead(user, id)).body.unread_count, 0);
    const after = (await list(user)).body;
    assert.equal(after.unread_count, 0);
    assert.ok(after.notifications.every((n: any) => n.read === true));
    // Someone else's unread notifications are untouched.
    const other = await createUser(server);
    await notify(other, 'still unread');
    await server.api('POST', '/api/notifications/mark-all-read', { token: user.token });
    assert.equal((await list(other)).body.unread_count, 1);
  });
});

describe('query plans', () => {
  const plan = (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => explain(server.ctx.db, query.compile());
  /** Only searches by key, notifications' in one of `indexes`, and no sort. */
  const assertSearchesOnly = (found: QueryPlan, indexes: string[]) => {
    assert.ok(found.steps.every((s) => s.access === 'search'), found.text);
    const own = found.steps.filter((s) => s.table === 'n' || s.table === 'notifications');
    assert.ok(own.length === 1 && indexes.includes(own[0]!.index!), found.text);
    assert.equal(found.sorts, false, found.text);
  };

  test('the notifications page reads an index, never the whole table, and needs no sort', async () => {
    assertSearchesOnly(await plan(notificationsPageQuery(server.ctx.db, 1, false, { skip: 0, limit: 20 })),
      ['notifications_user', 'notifications_user_unread']);
    assertSearchesOnly(await plan(notificationsPageQuery(server.ctx.db, 1, true, { skip: 0, limit: 20 })),
      ['notifications_user_unread']);
  });

  test('the unread count is answered from the partial index', async () => {
    assertSearchesOnly(await explain(server.ctx.db, { sql: 'SELECT count(*) FROM notifications WHERE user_id = ? AND read = 0', parameters: [1] }),
      ['notifications_user_unread']);
  });
});
