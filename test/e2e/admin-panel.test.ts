// The admin panel in Chromium: counters and tabs, levels, ban and unban (the banned user cannot
// log in), notifications, and deleting a post with a reason the author then reads.
// Data is made through the API; one server for the file. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser, promoteToAdmin, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let browser: Reader;
let admin: TestUser;

const userRow = (page: Page, username: string) => page.locator('.admin-row', { has: page.getByRole('link', { name: username, exact: true }) });
const counter = (page: Page, label: string) => page.locator('.admin-counter', { hasText: label }).locator('dd');

describe('admin panel in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    admin = await createUser(server, { username: 'editor_in_chief' });
    await promoteToAdmin(server, admin.id);
    browser = await startReader(server, { timeout: 10_000 });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows Access Denied to a non-admin and asks for no admin data', async () => {
    const user = await createUser(server, { username: 'plain_reader' });
    const watched = await browser.open('/');
    const adminCalls: string[] = [];
    watched.page.on('request', (r) => { if (r.url().includes('/api/admin/')) adminCalls.push(r.url()); });
    await watched.context.addInitScript((token) => localStorage.setItem('beatnik.token', token), user.token);
    await watched.page.goto('/admin');
    await watched.page.getByRole('heading', { level: 1, name: 'Access Denied' }).waitFor();
    await screenshot(watched.page, 'admin-denied-desktop');
    await watched.page.getByRole('link', { name: 'Back to the FrontPage' }).click();
    await watched.page.waitForURL((url) => url.pathname === '/');
    assert.deepEqual(adminCalls, []);
    await closeClean(watched);
  });

  it('changes levels, bans (the user cannot log in), unbans and notifies', async () => {
    const target = await createUser(server, { username: 'huncke_h', email: 'herbert@example.com' });
    const other = await createUser(server, { username: 'other_writer' });
    await createPost(server, target);

    const watched = await browser.open('/admin', { token: admin.token });
    const { page } = watched;
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    await page.waitForFunction(() => document.querySelector('.admin-counter dd')?.textContent !== '—');
    const users = Number(await counter(page, 'Total Users').textContent());
    assert.ok(users >= 3);
    assert.equal(await counter(page, 'Banned Users').textContent(), '0');
    await userRow(page, 'huncke_h').waitFor();
    // Oneself: no level change, no ban. Other admins: no ban.
    const me = userRow(page, 'editor_in_chief');
    assert.equal(await me.getByRole('button', { name: /Make Admin|Remove Admin|^Ban/ }).count(), 0);
    await screenshot(page, 'admin-users-desktop');

    // Search by email; filter by level.
    await page.getByLabel('Search users by username or email').fill('herbert@');
    await page.locator('#main').getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 user matching “herbert@”').waitFor();
    await page.getByLabel('Search users by username or email').fill('');
    await page.locator('#main').getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('Level').selectOption('admin');
    await page.getByText('Showing 1 of 1 user', { exact: true }).waitFor();
    await page.getByLabel('Level').selectOption('all');
    await userRow(page, 'other_writer').waitFor();

    await page.getByRole('button', { name: 'Make Admin: other_writer' }).click();
    await toastSays(page, 'User successfully promoted to admin');
    await userRow(page, 'other_writer').locator('.level-badge--admin').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Ban other_writer' }).count(), 0, 'admins cannot be banned');
    await page.getByRole('button', { name: 'Remove Admin: other_writer' }).click();
    await toastSays(page, 'User successfully demoted to user');
    await page.getByRole('button', { name: 'Ban other_writer' }).waitFor();

    // Ban: reason required; a non-numeric day count becomes 1.
    await page.getByRole('button', { name: 'Ban huncke_h' }).click();
    const ban = page.getByRole('dialog', { name: 'Ban huncke_h' });
    assert.equal(await ban.getByLabel('Days (1 to 365)').inputValue(), '1', 'default 1 day');
    await ban.getByRole('button', { name: 'Ban user' }).click();
    await ban.getByRole('alert').filter({ hasText: 'Please complete all fields' }).waitFor();
    await ban.getByLabel('Days (1 to 365)').fill('');
    await ban.getByLabel('Reason').fill('Spam in the comments');
    assert.equal(await ban.getByLabel('Days (1 to 365)').inputValue(), '1', 'an empty or non-numeric day count becomes 1');
    await screenshot(page, 'admin-ban-desktop', false);
    await ban.getByRole('button', { name: 'Ban user' }).click();
    await toastSays(page, 'User banned for 1 day');
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-counter')].some((c) => c.textContent === 'Banned Users1'));
    await userRow(page, 'huncke_h').getByText('Banned', { exact: true }).waitFor();

    // The banned user cannot log in.
    const banned = await browser.open('/login', { allow: (_text, url) => url.includes('/api/auth/login') });
    await banned.page.getByLabel('Email').fill(target.email);
    await banned.page.getByLabel('Password').fill(target.password);
    await banned.page.getByRole('button', { name: 'Log in' }).click();
    await banned.page.locator('[role="status"]', { hasText: /suspended|banned/i }).first().waitFor();
    assert.equal(new URL(banned.page.url()).pathname, '/login');
    await closeClean(banned);

    // Banned tab, then Unban.
    await page.getByRole('tab', { name: 'Banned' }).click();
    const row = page.locator('.admin-row', { hasText: 'huncke_h' });
    await row.getByText('Temporary').waitFor();
    await row.getByText('Spam in the comments').waitFor();
    await row.getByText(/hours?/).first().waitFor();
    await screenshot(page, 'admin-banned-desktop');
    await row.getByRole('button', { name: 'Unban huncke_h' }).click();
    await toastSays(page, 'User unbanned successfully');
    await page.getByText('There are currently no banned users.').waitFor();
    assert.equal((await server.api('POST', '/api/auth/login', { json: { email: target.email, password: target.password } })).status, 200);

    // A permanent ban, then unban again.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Ban huncke_h' }).click();
    const ban2 = page.getByRole('dialog', { name: 'Ban huncke_h' });
    await ban2.getByLabel('Permanent').check();
    assert.equal(await ban2.getByLabel('Days (1 to 365)').count(), 0);
    await ban2.getByLabel('Reason').fill('Repeated abuse');
    await ban2.getByRole('button', { name: 'Ban user' }).click();
    await toastSays(page, 'User permanently banned successfully');
    await page.getByRole('tab', { name: 'Banned' }).click();
    await page.locator('.admin-row', { hasText: 'huncke_h' }).getByText('Permanent').first().waitFor();
    await page.getByRole('button', { name: 'Unban huncke_h' }).click();
    await toastSays(page, 'User unbanned successfully');

    // Notify: subject and message required.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Notify huncke_h' }).click();
    const notify = page.getByRole('dialog', { name: 'Notify huncke_h' });
    await notify.getByLabel('Subject').fill('Welcome back');
    await notify.getByRole('button', { name: 'Send notification' }).click();
    await notify.getByRole('alert').filter({ hasText: 'Please complete all fields' }).waitFor();
    await screenshot(page, 'admin-notify-desktop', false);
    await notify.getByLabel('Message').fill('Please keep the comments on topic.');
    await notify.getByRole('button', { name: 'Send notification' }).click();
    await toastSays(page, 'Notification sent successfully');
    await notify.waitFor({ state: 'detached' });
    await closeClean(watched);

    const inbox = await server.api('GET', '/api/notifications', { token: await relogin(target) });
    assert.ok(inbox.body.notifications.some((n: any) => n.type === 'general' && n.subject === 'Welcome back'));
    assert.ok(inbox.body.notifications.some((n: any) => n.type === 'ban_notice'));
  });

  it('deletes a post with a reason, and the author reads why', async () => {
    const author = await createUser(server, { username: 'corso_g' });
    const post = await createPost(server, author, { title: 'Bomb, a poem shaped like a mushroom cloud' });
    await createPost(server, author, { title: 'Gasoline, and other early poems' });

    const watched = await browser.open('/admin', { token: admin.token });
    const { page } = watched;
    await page.getByRole('tab', { name: 'Posts' }).click();
    await page.getByLabel('Search posts by title or author').fill('corso_g');
    await page.locator('#main').getByRole('button', { name: 'Search' }).click();
    await page.getByText('Showing 2 of 2 active posts matching “corso_g”').waitFor();
    const row = page.locator('.admin-row', { hasText: post.title });
    await row.getByRole('link', { name: post.title }).waitFor();
    await row.getByText('corso_g').waitFor();
    await screenshot(page, 'admin-posts-desktop');
    await row.getByRole('button', { name: `Delete “${post.title}”` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete post' });
    await dialog.getByRole('button', { name: 'Delete post' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please enter a reason for deleting the post' }).waitFor();
    await screenshot(page, 'admin-delete-post-desktop', false);
    await dialog.getByLabel('Reason').fill('Breaks the community rules on violence');
    await dialog.getByRole('button', { name: 'Delete post' }).click();
    await toastSays(page, 'Post deleted successfully');
    await row.waitFor({ state: 'detached' });
    await page.getByText('Showing 1 of 1 active post matching “corso_g”').waitFor();
    await closeClean(watched);

    const inbox = await browser.open('/notifications', { token: author.token });
    const card = inbox.page.locator('.notice[data-type="post_deleted"]');
    await card.waitFor();
    await card.getByText(post.title, { exact: true }).waitFor();
    await card.getByText('Breaks the community rules on violence', { exact: false }).waitFor();
    await inbox.page.getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();
    await closeClean(inbox);

    const phone = await browser.open('/admin', { token: admin.token, viewport: PHONE });
    await phone.page.locator('.admin-row').first().waitFor();
    await screenshot(phone.page, 'admin-users-phone');
    await phone.page.getByRole('tab', { name: 'Posts' }).click();
    await phone.page.locator('.admin-row').first().waitFor();
    await screenshot(phone.page, 'admin-posts-phone');
    await phone.page.getByRole('button', { name: /^Delete “/ }).first().click();
    await phone.page.getByRole('dialog', { name: 'Delete post' }).waitFor();
    await screenshot(phone.page, 'admin-delete-post-phone', false);
    await closeClean(phone);
  });
});

async function relogin(user: TestUser): Promise<string> {
  const response = await server.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } });
  assert.equal(response.status, 200);
  return response.body.access_token;
}
