// A signed-in user who gets banned is signed out on their next request (or the 30 s poll of the
// bell) and /login tells them why: the reason and the end of the ban, in words and in their own
// time zone. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { humanDateTime } from '../../shared/dates.ts';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let admin: TestUser;
const ZONE = 'America/New_York';

/** The browser logs refused requests itself, and the bell logs its failed poll (SPEC §8). */
const refusals = (text: string, url: string) =>
  (url.includes('/api/') && text.includes('403')) || text.includes('unread notification count');

describe('a banned user is signed out and told why', () => {
  before(async () => {
    server = await startTestServer();
    admin = await createAdmin(server, { username: 'desk_editor' });
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('admin bans a signed-in user; their next request signs them out with the reason and the end', async () => {
    const target = await createUser(server, { username: 'ray_bremser' });
    const user = await reader.open('/profile', { token: target.token, timezoneId: ZONE, allow: refusals });
    await h1(user.page, 'My profile').waitFor();

    const desk = await reader.open('/admin', { token: admin.token });
    await desk.page.getByRole('button', { name: 'Ban ray_bremser' }).click();
    const dialog = desk.page.getByRole('dialog', { name: 'Ban ray_bremser' });
    await dialog.getByLabel('Days (1 to 365)').fill('7');
    await dialog.getByLabel('Reason').fill('Threats in the comments');
    await dialog.getByRole('button', { name: 'Ban user' }).click();
    await toastSays(desk.page, 'User banned for 7 days');
    await closeClean(desk);

    const row = await server.ctx.db.selectFrom('users').select('ban_until').where('id', '=', target.id).executeTakeFirstOrThrow();
    const end = humanDateTime(row.ban_until!, ZONE);
    assert.notEqual(end, humanDateTime(row.ban_until!, 'UTC'), 'the reader\'s zone, not UTC');

    await user.page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await user.page.waitForURL((url) => url.pathname === '/login');
    const notice = user.page.getByRole('alert').filter({ has: user.page.getByRole('heading', { name: 'You have been signed out' }) });
    await notice.waitFor();
    assert.equal((await notice.locator('.ban-notice__end').innerText()).trim(), `Your account is banned until ${end}.`);
    assert.equal((await notice.locator('.ban-notice__reason').innerText()).trim(), 'Reason: Threats in the comments');
    assert.equal(await notice.locator('time').getAttribute('datetime'), new Date(row.ban_until!).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00.000Z'));
    assert.doesNotMatch(await notice.innerText(), /\d{4}-\d\d-\d\dT/);
    await user.page.getByRole('link', { name: 'Login', exact: true }).waitFor();
    assert.equal(await user.page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    await screenshot(user.page, 'ban-notice-desktop');
    await closeClean(user);
  });

  it('the 30 s poll of the bell is enough; a permanent ban says so', async () => {
    const target = await createUser(server, { username: 'bob_kaufman' });
    const user = await reader.open('/login', { token: target.token, allow: refusals });
    await user.page.clock.install();
    await user.page.goto('/');
    await user.page.locator('.reader-tools__username', { hasText: 'bob_kaufman' }).waitFor();
    const res = await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: target.id, ban_type: 'permanent', ban_reason: 'Spam, again' },
    });
    assert.equal(res.status, 200);
    await user.page.clock.fastForward(31_000);
    await user.page.waitForURL((url) => url.pathname === '/login');
    const notice = user.page.getByRole('alert').filter({ hasText: 'You have been signed out' });
    await notice.getByText('Your account has been permanently banned.').waitFor();
    await notice.getByText('Spam, again').waitFor();
    await closeClean(user);
  });

  it('a stored token of a banned user, on opening the site, leads to the same notice', async () => {
    const target = await createUser(server, { username: 'diane_prima' });
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: target.id, ban_type: 'temporary', ban_reason: 'Cooling off', ban_until: until },
    });
    const user = await reader.open('/', { token: target.token, timezoneId: 'Asia/Tokyo', allow: refusals });
    await user.page.waitForURL((url) => url.pathname === '/login');
    const notice = user.page.getByRole('alert').filter({ hasText: 'You have been signed out' });
    await notice.getByText(`Your account is banned until ${humanDateTime(until, 'Asia/Tokyo')}.`).waitFor();
    await notice.getByText('Cooling off').waitFor();
    await closeClean(user);
  });
});
