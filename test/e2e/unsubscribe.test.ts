// A notification mail's unsubscribe link in Chromium (DESIGN.md, Mail): the page asks what the link
// stops, one button stops it, no sign-in needed, at 1280 and 390 px; a link that is not the site's
// says so. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unsubscribedText, UNSUBSCRIBE_LINK_INVALID } from '../../shared/mail-kinds.ts';
import { createUser, sqlRows, type TestServer } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { headerOf, startMailSite, type MailSite, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';
import { axeViolations, screenshot } from './browser.ts';
import { PHONE, closeClean, h1, startReader, type Reader } from './reader-support.ts';

let site: MailSite;
let smtp: SmtpPeer;
let server: TestServer;
let reader: Reader;

describe('Unsubscribing in Chromium', () => {
  before(async () => {
    site = await startMailSite({ EMAIL_VERIFICATION: 'off' });
    ({ smtp, server } = site);
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await site?.close();
  });

  it('goes from the mail\'s link to mail about comments stopped', async () => {
    const author = await createUser(server, { username: 'jack_spicer' });
    const commenter = await createUser(server, { username: 'robin_blaser' });
    const post = await createPost(server, author);
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: commenter.token, json: { content: 'After Lorca.' } });
    await waitFor(() => smtp.received.some((m) => m.to.includes(author.email)), { what: 'the notification mail' });
    const mail = smtp.received.find((m) => m.to.includes(author.email))!;
    const link = /^<https:\/\/paper\.example\.org(\/unsubscribe\?token=[\w.-]+)>$/.exec(headerOf(mail, 'List-Unsubscribe') ?? '');
    assert.ok(link, 'the mail carries the link');

    const watched = await reader.open(link[1]!);
    const { page } = watched;
    await h1(page, 'Unsubscribe').waitFor();
    await page.getByText('Stop mail about comments on your articles?').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'unsubscribe-desktop');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('status').filter({ hasText: unsubscribedText(['comments']) }).waitFor();
    const [row] = await sqlRows(server.ctx.db, 'SELECT mail_comments FROM users WHERE id = ?', author.id);
    assert.equal(row!.mail_comments, 0);
    await screenshot(page, 'unsubscribe-done');
    await closeClean(watched);

    const phone = await reader.open(link[1]!, { viewport: PHONE });
    await phone.page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the phone');
    await screenshot(phone.page, 'unsubscribe-phone');
    await closeClean(phone);
  });

  it('a link that is not the site\'s says so', async () => {
    const watched = await reader.open('/unsubscribe?token=1.c.forged', { allow: ['/api/unsubscribe'] });
    await watched.page.getByRole('alert').filter({ hasText: UNSUBSCRIBE_LINK_INVALID }).waitFor();
    assert.equal(await watched.page.getByRole('button', { name: 'Unsubscribe' }).count(), 0);
    await closeClean(watched);
  });
});
