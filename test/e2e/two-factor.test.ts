// Two-factor sign-in in Chromium (DESIGN.md, Running a community), at 1280 and 390 px: set up
// from Settings → Security with the QR code shown, the recovery codes shown once, sign out, and
// the two-step login, with the app's code on the desktop and a recovery code on the phone; and the
// admin page under ADMIN_2FA=required. The
// codes come from the secret the page shows, as an authenticator app would make them. Needs the
// built client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { SESSION_CLOSED_MESSAGE } from '../../shared/accounts.ts';
import { createAdmin, createUser, startTestServer } from '../helpers.ts';
import { axeViolations, screenshot } from './browser.ts';
import { DESKTOP, PHONE, closeClean, h1, openInApp, serverAndReader, startReader, toastSays } from './reader-support.ts';

/** The code of the step `offset` steps from now. */
const codeAt = (secret: string, offset = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Settings → Security, from off to on: returns the secret the page showed and the recovery codes. */
async function setUpTwoFactor(page: Page, password: string, shot: string): Promise<{ secret: string; codes: string[] }> {
  const security = page.getByRole('region', { name: 'Security' });
  await security.getByText('Two-factor sign-in is off.').waitFor();
  await security.getByLabel('Password').fill(password);
  await security.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const qr = security.getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  // The server's SVG drawn as an image: loaded, and square.
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('.two-factor__qr');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  assert.match(await qr.getAttribute('src') ?? '', /^data:image\/svg\+xml;/);
  const secret = (await security.locator('.two-factor__secret').innerText()).replace(/\s+/g, '');
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await security.scrollIntoViewIfNeeded();
  assert.ok(await fitsWidth(page), 'nothing wider than the screen');
  assert.deepEqual(await axeViolations(page, '.settings'), []);
  await screenshot(page, `${shot}-qr`);

  // A wrong code first: the field says so, and it stays off.
  await security.getByLabel('Code from the app').fill('000000');
  await security.getByRole('button', { name: 'Turn on' }).click();
  await security.getByText('Invalid two-factor code.').waitFor();
  await security.getByLabel('Code from the app').fill(codeAt(secret));
  await security.getByRole('button', { name: 'Turn on' }).click();
  await toastSays(page, 'Two-factor authentication is on.');
  const list = security.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.locator('li').allInnerTexts()).map((c) => c.trim());
  assert.equal(codes.length, 10);
  for (const code of codes) assert.match(code, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
  assert.ok(await fitsWidth(page), 'nothing wider than the screen');
  await screenshot(page, `${shot}-recovery-codes`);
  await security.getByRole('button', { name: 'I have saved them' }).click();
  await security.getByText('Two-factor sign-in is on.').waitFor();
  assert.equal(await list.count(), 0, 'the codes are shown once');
  return { secret, codes };
}

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Logout' }).click();
  await toastSays(page, SESSION_CLOSED_MESSAGE);
}

async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  // Inside the app: a reload would put back the token the test opened the page with.
  await openInApp(page, '/login');
  await h1(page, 'Login').waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('form', { name: 'Two-factor code' }).waitFor();
}

describe('Two-factor sign-in in Chromium', () => {
  const site = serverAndReader({ timeout: 10_000 });

  it('on the desktop: set up from Settings → Security, sign out, and sign in with the app\'s code', async () => {
    const user = await createUser(site.server, { username: 'lawrence_ferlinghetti' });
    const watched = await site.reader.open('/settings', { token: user.token, viewport: DESKTOP, allow: ['/api/users/me/two-factor', '/api/auth/login/2fa'] });
    const { page } = watched;
    await h1(page, 'Settings').waitFor();
    const { secret } = await setUpTwoFactor(page, user.password, 'two-factor-desktop');
    await signOut(page);

    await passwordStep(page, user.email, user.password);
    assert.equal(await page.evaluate(() => localStorage.getItem('beatnik.token')), null, 'no session before the code');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'login-code');
    assert.deepEqual(await axeViolations(page), []);
    await page.getByLabel('Authentication code').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid two-factor code.' }).waitFor();
    await screenshot(page, 'two-factor-desktop-login');
    // The code of the step set-up used is spent: the next one, as the app shows it a moment later.
    await page.getByLabel('Authentication code').fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await toastSays(page, `Welcome back, ${user.username}!`);
    assert.notEqual(await page.evaluate(() => localStorage.getItem('beatnik.token')), null);
    await closeClean(watched);
  });

  it('on a phone: set up, sign out, and sign in with a recovery code', async () => {
    const user = await createUser(site.server, { username: 'diane_wakoski' });
    const watched = await site.reader.open('/settings', { token: user.token, viewport: PHONE, allow: ['/api/users/me/two-factor'] });
    const { page } = watched;
    await h1(page, 'Settings').waitFor();
    const { codes } = await setUpTwoFactor(page, user.password, 'two-factor-phone');
    await signOut(page);

    await passwordStep(page, user.email, user.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!.toUpperCase());
    assert.ok(await fitsWidth(page), 'nothing wider than the phone');
    await screenshot(page, 'two-factor-phone-login', false);
    await page.getByRole('button', { name: 'Verify' }).click();
    await toastSays(page, `Welcome back, ${user.username}!`);
    await closeClean(watched);
  });

  it('with ADMIN_2FA=required, the admin page sends an admin without it to Settings → Security', async () => {
    const strict = await startTestServer({ env: { ADMIN_2FA: 'required' } });
    const reader = await startReader(strict, { timeout: 10_000 });
    try {
      const admin = await createAdmin(strict);
      const watched = await reader.open('/admin', { token: admin.token, allow: ['/api/admin/stats'] });
      const { page } = watched;
      await page.getByText('Set up two-factor authentication to use admin tools.').waitFor();
      assert.equal(await page.getByRole('tab').count(), 0, 'no tabs: nothing else is asked for');
      await screenshot(page, 'two-factor-admin-required');
      await page.getByRole('link', { name: 'Go to Settings → Security' }).click();
      await h1(page, 'Settings').waitFor();
      await page.getByRole('region', { name: 'Security' }).getByText('Two-factor sign-in is off.').waitFor();
      await closeClean(watched);
    } finally {
      await reader.close();
      await strict.stop();
    }
  });
});
