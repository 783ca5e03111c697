// A new address in Chromium (DESIGN.md, Mail): the banner over every page while it waits, a write
// refused, the link sent again from the banner, and the mailed link that confirms it, at 1280 and
// 390 px; a bad link says so. Settings → Email notifications keeps its choices. Needs the built
// client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  EMAIL_VERIFIED_MESSAGE, VERIFICATION_SENT_MESSAGE, VERIFY_LINK_INVALID_MESSAGE,
} from '../../shared/accounts.ts';
import { createUser, sqlRows, type TestServer } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { startMailSite, type MailSite, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';
import { axeViolations, screenshot } from './browser.ts';
import { PHONE, closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let site: MailSite;
let smtp: SmtpPeer;
let server: TestServer;
let reader: Reader;

const BANNER = 'Verify your email address';

function linksTo(email: string): string[] {
  return smtp.received.filter((m) => m.to.includes(email)).map((m) => {
    const link = /https:\/\/paper\.example\.org(\/verify-email\?token=[\w-]+)/.exec(m.mail.text ?? '');
    assert.ok(link, 'the mail carries the link');
    return link[1]!;
  });
}

describe('A new address in Chromium', () => {
  before(async () => {
    site = await startMailSite();
    ({ smtp, server } = site);
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await site?.close();
  });

  it('waits under a banner, sends the link again, and is confirmed by it', async () => {
    const author = await createUser(server, { username: 'lawrence_ferlinghetti' });
    await sqlRows(server.ctx.db, 'UPDATE users SET email_verified = 1 WHERE id = ?', author.id);
    const post = await createPost(server, author);
    const user = await createUser(server, { username: 'anne_waldman' });
    await waitFor(() => linksTo(user.email).length === 1, { what: 'the registration\'s link' });

    const watched = await reader.open(`/post/${post.id}`, { token: user.token, allow: [`/api/posts/${post.id}/comments`, '/api/auth/verify-email'] });
    const { page } = watched;
    const banner = page.getByRole('complementary', { name: BANNER });
    await banner.getByText(user.email).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'verify-banner-desktop');

    // The server refuses the write: SPEC's fixed text for a comment, the banner above saying why.
    await page.getByLabel('Your comment').fill('Can I say something?');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await toastSays(page, 'Error submitting comment');

    await banner.getByRole('button', { name: 'Resend verification email' }).click();
    await toastSays(page, VERIFICATION_SENT_MESSAGE);
    await waitFor(() => linksTo(user.email).length === 2, { what: 'the link sent again' });

    // The newer link voided the first: the first says so.
    const [first, second] = linksTo(user.email);
    await page.goto(first!);
    await h1(page, 'Confirm your email address').waitFor();
    await page.getByRole('alert').filter({ hasText: VERIFY_LINK_INVALID_MESSAGE }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Resend verification email' }).waitFor();

    await page.goto(second!);
    await page.getByRole('status').filter({ hasText: EMAIL_VERIFIED_MESSAGE }).waitFor();
    await banner.waitFor({ state: 'detached' });
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'verify-email-done');

    await page.getByRole('link', { name: 'Go to the front page' }).click();
    await page.goto(`/post/${post.id}`);
    await page.getByLabel('Your comment').fill('Now I can.');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await toastSays(page, 'Comment added');
    await closeClean(watched);
  });

  it('Settings chooses which mail comes, and keeps the choice', async () => {
    const user = await createUser(server, { username: 'joanne_kyger' });
    const watched = await reader.open('/settings', { token: user.token });
    const { page } = watched;
    const section = page.getByRole('region', { name: 'Email notifications' });
    const followers = section.getByRole('checkbox', { name: 'New followers' });
    await followers.waitFor();
    assert.equal(await section.getByRole('checkbox', { name: 'Comments on my articles' }).isChecked(), true);
    assert.equal(await followers.isChecked(), false);
    // A slow answer: the box shows the choice at once all the same.
    await page.route('**/api/users/me/email-preferences', async (route) => {
      if (route.request().method() === 'PUT') await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await followers.check();
    await toastSays(page, 'Email preferences saved');
    await section.getByRole('checkbox', { name: /A weekly digest/ }).check();
    await toastSays(page, 'Email preferences saved');
    assert.deepEqual(await axeViolations(page, '#main'), []);
    await screenshot(page, 'settings-email-notifications');
    await page.reload();
    await section.getByRole('checkbox', { name: 'New followers' }).waitFor();
    assert.equal(await section.getByRole('checkbox', { name: 'New followers' }).isChecked(), true);
    assert.equal(await section.getByRole('checkbox', { name: /A weekly digest/ }).isChecked(), true);
    const stored = await sqlRows(server.ctx.db, 'SELECT mail_followers, mail_digest FROM users WHERE id = ?', user.id);
    assert.deepEqual({ ...stored[0] }, { mail_followers: 1, mail_digest: 'weekly' });
    await closeClean(watched);
  });

  it('fits a phone', async () => {
    const user = await createUser(server, { username: 'diane_wakoski' });
    const phone = await reader.open('/', { token: user.token, viewport: PHONE });
    const banner = phone.page.getByRole('complementary', { name: BANNER });
    await banner.getByRole('button', { name: 'Resend verification email' }).waitFor();
    assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the phone');
    await screenshot(phone.page, 'verify-banner-phone');
    await closeClean(phone);
  });
});
