// /settings in Chromium (DESIGN.md, Accounts: settings): a new password signs out the other
// browser, a deleted account leaves the author it rated and followed with numbers that agree with
// check-counters, sign-out ends the token on the server, and the data comes down as a file.
// Needs the built client.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { oneDecimal } from '../../client/format.ts';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, startTestServer, type TestServer } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;

/** The browser logs the refused requests of a session that has ended; the bell logs its failed poll. */
const endedSession = (text: string, url: string) =>
  (url.includes('/api/') && /\b(401|403)\b/.test(text)) || text.includes('unread notification count');

describe('Settings in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    // Not the last admin: the accounts below may leave.
    await createAdmin(server);
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('the header leads to the settings, with a section for each thing one may do', async () => {
    const user = await createUser(server, { username: 'gary_snyder' });
    const watched = await reader.open('/', { token: user.token });
    const { page } = watched;
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await h1(page, 'Settings').waitFor();
    for (const section of ['Password', 'Email', 'Sessions', 'Your data', 'Delete account']) {
      await page.getByRole('heading', { level: 2, name: section, exact: true }).waitFor();
    }
    await page.getByText(`You sign in with ${user.email}.`, { exact: false }).waitFor();
    await screenshot(page, 'settings-desktop');
    // The form checks before sending, with the server's words.
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Please enter your current password').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'password-current');
    await closeClean(watched);

    const phone = await reader.open('/profile', { token: user.token, viewport: PHONE });
    await phone.page.getByRole('link', { name: 'Settings', exact: true }).click();
    await h1(phone.page, 'Settings').waitFor();
    assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the phone');
    await screenshot(phone.page, 'settings-phone');
    await closeClean(phone);
  });

  it('a new password in one browser signs the other one out; this one stays signed in', async () => {
    const user = await createUser(server, { username: 'joanne_kyger' });
    const laptop = await reader.open('/profile', { token: user.token, allow: endedSession });
    await h1(laptop.page, 'My profile').waitFor();
    const desk = await reader.open('/settings', { token: user.token });
    const { page } = desk;
    await h1(page, 'Settings').waitFor();
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password', { exact: true }).fill('a brand new one');
    await form.getByLabel('Confirm new password').fill('a brand new one');
    await form.getByRole('button', { name: 'Change password' }).click();
    await toastSays(page, 'Password changed successfully');
    assert.equal(await form.getByLabel('Current password').inputValue(), '', 'the form is emptied');

    // The other browser's next request finds its session ended.
    await laptop.page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await laptop.page.waitForURL((url) => url.pathname === '/login');
    await laptop.page.getByRole('link', { name: 'Login', exact: true }).waitFor();
    assert.equal(await laptop.page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    await closeClean(laptop);

    // This one carries on with its new token. (Not across a reload: the test signed this browser in
    // with a script that stores the first token again at every load.)
    const stored = await page.evaluate(() => localStorage.getItem('beatnik.token'));
    assert.ok(stored && stored !== user.token);
    assert.equal((await server.api('GET', '/api/users/me', { token: stored })).status, 200);
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await h1(page, 'Notifications').waitFor();
    await page.locator('.reader-tools__username', { hasText: 'joanne_kyger' }).waitFor();
    const login = await server.api('POST', '/api/auth/login', { json: { email: user.email, password: 'a brand new one' } });
    assert.equal(login.status, 200);
    await closeClean(desk);
  });

  it("deleting an account leaves the author it rated and followed with the numbers check-counters agrees with", async () => {
    const author = await createUser(server, { username: 'lew_welch' });
    const fan = await createUser(server, { username: 'leaving_fan' });
    const post = await createPost(server, author, { title: 'Ring of bone, the whole night through' });
    await server.api('GET', `/api/posts/${post.id}`, { token: fan.token });
    assert.equal((await server.api('POST', `/api/posts/${post.id}/rate`, { token: fan.token, json: { rating: 5 } })).status, 200);
    assert.equal((await server.api('POST', `/api/posts/${post.id}/comments`, { token: fan.token, json: { content: 'Yes!' } })).status, 201);
    assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: fan.token })).status, 200);
    const before = (await server.api('GET', `/api/users/${author.id}`)).body;
    assert.equal(before.followers_count, 1);

    const visitor = await reader.open('/beatnik/lew_welch', { allow: ['/beatnik/leaving_fan'] });
    await h1(visitor.page, 'lew_welch').waitFor();
    assert.equal(await visitor.page.getByRole('button', { name: /^Followers: / }).innerText(), '1');
    await visitor.page.getByText(`Mojo ${oneDecimal(before.mojo)}`).waitFor();

    const watched = await reader.open('/settings', { token: fan.token, allow: endedSession });
    const { page } = watched;
    const form = page.getByRole('form', { name: 'Delete account' });
    // A wrong password first: said beside the field, nothing deleted.
    await form.getByLabel('Password').fill('not my password');
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('dialog', { name: 'Delete your account?' }).getByRole('button', { name: 'Delete my account' }).click();
    await form.getByText('Password is incorrect').waitFor();
    assert.equal((await server.api('GET', `/api/users/${fan.id}`)).status, 200);

    await form.getByLabel('Password').fill(fan.password);
    await form.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await screenshot(page, 'settings-delete-dialog', false);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await toastSays(page, 'Your account has been deleted');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    await closeClean(watched);

    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
    const now = (await server.api('GET', `/api/users/${author.id}`)).body;
    assert.equal(now.followers_count, 0);
    assert.ok(now.mojo < before.mojo, `${now.mojo} < ${before.mojo}`);
    await visitor.page.reload();
    await h1(visitor.page, 'lew_welch').waitFor();
    assert.equal(await visitor.page.getByRole('button', { name: /^Followers: / }).innerText(), '0');
    await visitor.page.getByText(`Mojo ${oneDecimal(now.mojo)}`).waitFor();
    await visitor.page.goto(`/post/${post.id}`);
    await h1(visitor.page, post.title).waitFor();
    const stats = await visitor.page.locator('main').innerText();
    assert.match(stats, /0 comments/i);
    await visitor.page.goto('/beatnik/leaving_fan');
    await visitor.page.getByText('User not found').waitFor();
    await closeClean(visitor);
  });

  it('Logout ends the token on the server, not only in this browser', async () => {
    const user = await createUser(server, { username: 'philip_whalen' });
    const watched = await reader.open('/', { token: user.token });
    const { page } = watched;
    await page.locator('.reader-tools__username', { hasText: 'philip_whalen' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await toastSays(page, 'Session closed successfully');
    await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).status, 401, 'a copy of the token is useless');
    await closeClean(watched);
  });

  it('Sign out everywhere ends every session and goes to the login page', async () => {
    const user = await createUser(server, { username: 'michael_mcclure' });
    const other = await server.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } });
    const watched = await reader.open('/settings', { token: user.token, allow: endedSession });
    const { page } = watched;
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('dialog', { name: 'Sign out everywhere?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
    await toastSays(page, 'Signed out on every device');
    await page.waitForURL((url) => url.pathname === '/login');
    for (const token of [user.token, other.body.access_token]) {
      assert.equal((await server.api('GET', '/api/users/me', { token })).status, 401);
    }
    await closeClean(watched);
  });

  it('Download my data saves one JSON file of the account', async () => {
    const user = await createUser(server, { username: 'diane_wakoski' });
    const post = await createPost(server, user, { title: 'Coins and coffins under the bed' });
    const watched = await reader.open('/settings', { token: user.token });
    const { page } = watched;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `beatnik-diane_wakoski-${new Date().toISOString().slice(0, 10)}.json`);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    assert.equal(data.profile.username, 'diane_wakoski');
    assert.equal(data.profile.email, user.email);
    assert.deepEqual(data.posts.map((p: any) => p.title), [post.title]);
    assert.doesNotMatch(JSON.stringify(data), /argon2/);
    await closeClean(watched);
  });
});
