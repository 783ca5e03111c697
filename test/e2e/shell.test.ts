// The app shell in a real browser: route guards, register, login, logout, the admin link, the
// narrow layout, and that the page never errors or reaches off its own origin.
// Needs the built client (npm run test:e2e builds it first).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser, promoteToAdmin, startTestServer, type TestServer } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { DESKTOP, PHONE, closeClean, h1, startReader, type Reader } from './reader-support.ts';

let server: TestServer;
let browser: Reader;

const open = (urlPath: string, viewport = DESKTOP) => browser.open(urlPath, { viewport });

async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('app shell in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    browser = await startReader(server);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a signed-out reader from a protected page to /login', async () => {
    const watched = await open('/write');
    const { page } = watched;
    await page.waitForURL('**/login');
    await h1(page, 'Login').waitFor();
    assert.ok(await page.getByText('The only people for me are the mad ones', { exact: false }).isVisible());
    // The chrome of SPEC §1: date, ABOUT and CONTACT as plain text, the footer line.
    const today = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(new Date());
    await page.getByText(today).waitFor();
    assert.equal(await page.locator('a', { hasText: /^(ABOUT|CONTACT)$/ }).count(), 0);
    await page.getByText('Privacy Policy | Terms of Service').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Write' }).count(), 0);
    await screenshot(page, 'login-desktop');
    await closeClean(watched);
  });

  it('registers through the form, with client validation, then logs in and out', async () => {
    const username = 'ginsberg';
    const email = 'allen@example.com';
    const password = 'howl-1956';
    const watched = await open('/register');
    const { page } = watched;
    await h1(page, 'Register').waitFor();

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill('something-else');
    await page.getByLabel('Biography (optional)').fill('Poet.');
    await page.getByText('5/500').waitFor();
    await page.getByRole('button', { name: 'Create account' }).click();
    const mismatch = page.locator('#register-confirm-error');
    await mismatch.waitFor();
    assert.equal(await mismatch.textContent(), 'Passwords do not match');
    assert.equal(new URL(page.url()).pathname, '/register');
    await screenshot(page, 'register-desktop');

    await page.getByLabel('Confirm password').fill(password);
    await mismatch.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Account created successfully! You can now log in.').waitFor();
    await page.waitForURL('**/login');

    await submitLogin(page, email, password);
    await page.getByText(`Welcome back, ${username}!`).waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('.reader-tools__username', { hasText: username }).waitFor();
    await page.getByRole('link', { name: 'Write', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Admin', exact: true }).count(), 0, 'a plain user sees no Admin link');
    assert.equal(await page.getByRole('link', { name: 'Login', exact: true }).count(), 0);
    assert.ok(await page.evaluate(() => document.fonts.check('64px UnifrakturMaguntia')), 'masthead font loaded');
    await screenshot(page, 'home-desktop');

    // A signed-in reader cannot open /login: it sends them home.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await h1(page, 'Beatnik').waitFor();

    // The narrow layout: icon bar with Notif and Profile, section links hidden.
    await page.setViewportSize(PHONE);
    const iconBar = page.getByRole('navigation', { name: 'Sections and account' });
    await iconBar.getByRole('link', { name: 'Notif' }).waitFor();
    await iconBar.getByRole('link', { name: 'Profile' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Sections', exact: true }).count(), 0);
    await screenshot(page, 'home-narrow', false);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Session closed successfully').waitFor();
    await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    await closeClean(watched);
  });

  it('shows the narrow layout without a Register link', async () => {
    const watched = await open('/login', PHONE);
    const { page } = watched;
    await h1(page, 'Login').waitFor();
    const iconBar = page.getByRole('navigation', { name: 'Sections and account' });
    await iconBar.getByRole('link', { name: 'Login' }).waitFor();
    assert.equal(await iconBar.getByRole('link', { name: 'Register' }).count(), 0);
    assert.equal(await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Register' }).count(), 0);
    await screenshot(page, 'login-narrow', false);
    await page.goto('/register');
    await h1(page, 'Register').waitFor();
    await screenshot(page, 'register-narrow', false);
    await closeClean(watched);
  });

  it('shows the Admin link to an admin only', async () => {
    const admin = await createUser(server, { username: 'burroughs' });
    await promoteToAdmin(server, admin.id);
    const watched = await open('/login');
    const { page } = watched;
    await submitLogin(page, admin.email, admin.password);
    await page.getByText('Welcome back, burroughs!').waitFor();
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL('**/admin');
    await h1(page, 'Admin').waitFor();
    await closeClean(watched);
  });

  it('keeps a stored session across a reload and drops a bad token', async () => {
    const user = await createUser(server, { username: 'corso' });
    const watched = await open('/');
    const { page } = watched;
    await page.evaluate((token) => localStorage.setItem('beatnik.token', token), user.token);
    await page.goto('/profile');
    await h1(page, 'My profile').waitFor();
    await page.locator('.reader-tools__username', { hasText: 'corso' }).waitFor();

    await page.evaluate(() => localStorage.setItem('beatnik.token', 'not-a-token'));
    await page.goto('/profile');
    await page.waitForURL('**/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    // The rejected /api/users/me is the one console error this step expects.
    const expected = watched.problems.filter((p) => p.includes('/api/users/me'));
    assert.equal(expected.length, 1);
    watched.problems.splice(watched.problems.indexOf(expected[0]!), 1);
    await closeClean(watched);
  });

  it("shows the unread count on the bell, '9+' above 9 on desktop", async () => {
    const user = await createUser(server, { username: 'diprima' });
    const watched = await open('/');
    const { page } = watched;
    // The count comes from the notifications API; answer it here so the badge has something to show.
    await page.route('**/api/notifications?*', (route) =>
      route.fulfill({ json: { notifications: [], total: 12, unread_count: 12 } }));
    await page.evaluate((token) => localStorage.setItem('beatnik.token', token), user.token);
    await page.reload();
    const bell = page.getByRole('link', { name: 'Notifications, 12 unread' });
    await bell.waitFor();
    assert.equal(await bell.locator('.badge').textContent(), '9+');
    await page.setViewportSize(PHONE);
    const notif = page.getByRole('navigation', { name: 'Sections and account' }).getByRole('link', { name: 'Notif, 12 unread' });
    await notif.waitFor();
    assert.equal(await notif.locator('.badge').textContent(), '12');
    await closeClean(watched);
  });

  it('signs out on a 401 from a call outside the exempt paths (SPEC §8)', async () => {
    const user = await createUser(server, { username: 'orlovsky' });
    const watched = await open('/');
    const { page } = watched;
    await page.route('**/api/notifications?*', (route) =>
      route.fulfill({ status: 401, json: { detail: 'Not authenticated' } }));
    await page.evaluate((token) => localStorage.setItem('beatnik.token', token), user.token);
    await page.goto('/ranks');
    // /login, told to come back to The Pulse once signed in.
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/ranks');
    await h1(page, 'Login').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    await page.unroute('**/api/notifications?*');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/ranks');
    await h1(page, 'The Pulse').waitFor();
    // The browser logs the 401 itself, and the failed poll is logged as SPEC §8 says.
    watched.problems.splice(0, watched.problems.length,
      ...watched.problems.filter((p) => !p.includes('/api/notifications') && !p.includes('unread notification count')));
    await closeClean(watched);
  });

  it('shows a not-found page for unknown paths, sent with a 404 and hydrated', async () => {
    // The browser logs the document's 404 itself: expected, and only that one.
    const watched = await browser.open('/no/such/page', { viewport: DESKTOP, allow: ['/no/such/page'] });
    const answer = await watched.page.reload();
    assert.equal(answer?.status(), 404);
    await h1(watched.page, 'Page not found').waitFor();
    await watched.page.getByRole('link', { name: 'Back to the FrontPage' }).click();
    await h1(watched.page, 'Beatnik').waitFor();
    await closeClean(watched);
  });
});
