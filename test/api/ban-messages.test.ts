// What a banned user reads (DESIGN.md, Edges: dates people read are human): the 403 on every
// signed-in request, the refused login and the ban notice all give the reason and the end as
// '12 December 2026, 10:00 UTC', never an ISO string.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';

let server: TestServer;
let admin: TestUser;

before(async () => {
  server = await startTestServer();
  admin = await createAdmin(server);
});
after(async () => { await server.stop(); });

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The end as people read it, written out by hand from the stored ISO time. */
function readable(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

async function banThrough(target: TestUser, body: Record<string, unknown>) {
  const res = await server.api('POST', '/api/admin/ban-user', { token: admin.token, json: { user_id: target.id, ...body } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

describe('the ban sentence', () => {
  it('a temporary ban: reason and a human end date, on requests, at login and in the notice', async () => {
    const target = await createUser(server);
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await banThrough(target, { ban_type: 'temporary', ban_reason: 'Spam in the comments', ban_until: until });
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

  it('a permanent ban says so, with the reason', async () => {
    const target = await createUser(server);
    await banThrough(target, { ban_type: 'permanent', ban_reason: 'Repeated abuse' });
    const me = await server.api('GET', '/api/users/me', { token: target.token });
    assert.deepEqual([me.status, me.body], [403, { detail: 'Your account has been permanently banned. Reason: Repeated abuse' }]);
  });
});
