// A forgotten password in Chromium (DESIGN.md, Mail): from /login's link to the mail, which a real
// SMTP server started here receives, to a new password and a sign-in with it, at 1280 and 390 px;
// without mail the link is not there. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESET_DONE, RESET_REQUESTED } from '../../server/auth/password-reset.ts';
import { createUser, startTestServer, type TestServer } from '../helpers.ts';
import { startMailSite, type MailSite, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';
import { axeViolations, screenshot } from './browser.ts';
import { PHONE, closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let site: MailSite;
let smtp: SmtpPeer;
let server: TestServer;
let reader: Reader;

describe('A forgotten password in Chromium', () => {
  before(async () => {
    site = await startMailSite({ EMAIL_VERIFICATION: 'off' });
    ({ smtp, server } = site);
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await site?.close();
  });

  it('goes from the login page to a mailed link, a new password and a sign-in with it', async () => {
    const user = await createUser(server, { username: 'diane_di_prima' });
    const watched = await reader.open('/login');
    const { page } = watched;
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await h1(page, 'Forgot your password?').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    // Checked before sending, with the server's words.
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please enter your email').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'forgot-email');
    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByLabel('Email').fill(user.email);
    await screenshot(page, 'forgot-password-desktop');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: RESET_REQUESTED }).waitFor();
    await screenshot(page, 'forgot-password-sent');

    await smtp.waitForMail(1);
    const link = /https:\/\/paper\.example\.org(\/reset-password\?token=[\w-]+)/.exec(smtp.received[0]!.mail.text ?? '');
    assert.ok(link, 'the mail carries the link');
    await page.goto(link[1]!);
    await h1(page, 'Choose a new password').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm new password').fill('a different one');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm new password').fill('a brand new secret');
    await screenshot(page, 'reset-password-desktop');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await toastSays(page, RESET_DONE);
    await h1(page, 'Login').waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Log in' }).click();
    await toastSays(page, `Welcome back, ${user.username}!`);
    await waitFor(() => smtp.received.length === 2, { what: 'the notice of the change' });
    assert.equal(smtp.received[1]!.mail.subject, 'Your Beatnik password was changed');
    await closeClean(watched);
  });

  it('fits a phone', async () => {
    const phone = await reader.open('/forgot-password', { viewport: PHONE });
    await h1(phone.page, 'Forgot your password?').waitFor();
    assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the phone');
    await screenshot(phone.page, 'forgot-password-phone');
    await phone.page.goto('/reset-password?token=whatever');
    await h1(phone.page, 'Choose a new password').waitFor();
    assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the phone');
    await screenshot(phone.page, 'reset-password-phone');
    await closeClean(phone);
  });

  it('a used or made-up link says so, and the form stays', async () => {
    const watched = await reader.open('/reset-password?token=made-up', { allow: ['/api/auth/reset-password'] });
    const { page } = watched;
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm new password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await toastSays(page, 'This reset link is invalid or has expired.');
    await h1(page, 'Choose a new password').waitFor();
    await closeClean(watched);
  });

  it('without mail, the login page offers no reset', async () => {
    const plain = await startTestServer();
    const plainReader = await startReader(plain, { timeout: 10_000 });
    try {
      const watched = await plainReader.open('/login');
      await h1(watched.page, 'Login').waitFor();
      // The page has its answer from /api/config, and has drawn what follows from it.
      await watched.page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/config')));
      await watched.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.equal(await watched.page.getByRole('link', { name: 'Forgot your password?' }).count(), 0);
      // Nor is the page there, asked for by its address.
      await watched.page.goto('/forgot-password');
      await h1(watched.page, 'Page not found').waitFor();
      await closeClean(watched);
    } finally {
      await plainReader.close();
      await plain.stop();
    }
  });
});
