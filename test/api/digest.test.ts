// The weekly digest (DESIGN.md, Mail), against a real SMTP server started here: the Monday run
// waits in the jobs table, and when it comes every reader who chose the digest, verified and not
// banned, gets the week's top five of The Pulse and the new articles of the authors they follow
// (not the muted); the next Monday's run is queued; one-click unsubscribe stops it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nextDigestTime } from '../../server/digest/digest.service.ts';
import { banInDatabase, createUser, sqlNumber, sqlRows, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { headerOf, startMailSite, type MailSite, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';

let site: MailSite;
let smtp: SmtpPeer;
let server: TestServer;
before(async () => {
  site = await startMailSite({ EMAIL_VERIFICATION: 'off' });
  ({ smtp, server } = site);
});
after(() => site.close());

const db = () => server.ctx.db;
const mailsTo = (to: string, from = 0) => smtp.mailsTo(to, from);
const weeklyRuns = () => sqlRows<{ run_at: string }>(db(), "SELECT run_at FROM jobs WHERE kind = 'weekly-digest'");
const chooseDigest = (user: TestUser) =>
  server.api('PUT', '/api/users/me/email-preferences', { token: user.token, json: { digest: 'weekly' } });

/** The Monday run, due now; resolves once it and the mails it queued are done. */
async function runTheMondayDigest(): Promise<void> {
  await sqlRows(db(), "UPDATE jobs SET run_at = ? WHERE kind = 'weekly-digest'", new Date(Date.now() - 1000).toISOString());
  await waitFor(async () => (await weeklyRuns()).every((run) => Date.parse(run.run_at) > Date.now())
    && await sqlNumber(db(), "SELECT COUNT(*) FROM jobs WHERE kind = 'digest-mail'") === 0, { what: 'the Monday run and its mails' });
}

describe('the schedule', () => {
  test('the first Monday 08:00 UTC after a moment', () => {
    assert.equal(nextDigestTime(new Date('2026-11-28T19:00:00Z')).toISOString(), '2026-11-30T08:00:00.000Z'); // a Saturday
    assert.equal(nextDigestTime(new Date('2026-11-30T07:59:59Z')).toISOString(), '2026-11-30T08:00:00.000Z');
    assert.equal(nextDigestTime(new Date('2026-11-30T08:00:00Z')).toISOString(), '2026-12-07T08:00:00.000Z');
    assert.equal(nextDigestTime(new Date('2026-12-06T23:00:00Z')).toISOString(), '2026-12-07T08:00:00.000Z'); // a Sunday
  });

  test('the leader keeps one Monday run waiting in the jobs table', async () => {
    await waitFor(async () => (await weeklyRuns()).length === 1, { what: 'the scheduled run' });
    const [run] = await weeklyRuns();
    assert.equal(run!.run_at, nextDigestTime(new Date()).toISOString());
  });
});

describe('the Monday run', () => {
  let reader: TestUser;
  let author: TestUser;
  let muted: TestUser;
  before(async () => {
    author = await createUser(server, { username: 'bob_kaufman' });
    muted = await createUser(server, { username: 'muted_author' });
    reader = await createUser(server, { username: 'ruth_weiss' });
    await chooseDigest(reader);
    for (const followed of [author, muted]) await server.api('POST', `/api/follow/${followed.id}`, { token: reader.token });
    await server.api('PUT', `/api/users/me/mutes/users/${muted.id}`, { token: reader.token });
    await createPost(server, author, { title: 'Solitudes Crowded with Loneliness' });
    await createPost(server, muted, { title: 'Not for the reader who muted me' });
  });

  test('mails each reader who chose it the top of the week and what followed authors wrote', async () => {
    const notChosen = await createUser(server);
    const banned = await createUser(server);
    await chooseDigest(banned);
    await banInDatabase(server, banned.id, { permanent: true, reason: 'Spam' });
    const from = smtp.received.length;
    await runTheMondayDigest();

    const [mail] = mailsTo(reader.email, from);
    assert.ok(mail, 'the reader got the digest');
    assert.equal(mailsTo(reader.email, from).length, 1);
    assert.match(mail.mail.subject ?? '', /^The week on Beatnik: /);
    const text = mail.mail.text ?? '';
    // The Pulse leaves out what the reader muted, as the reader's own Pulse does.
    assert.match(text, /THE PULSE: THE WEEK'S TOP FIVE\n\n\* Solitudes Crowded with Loneliness, by bob_kaufman\n  "Article \d+\./);
    assert.match(text, /NEW FROM AUTHORS YOU FOLLOW\n\n\* Solitudes Crowded with Loneliness, by bob_kaufman/);
    assert.doesNotMatch(text, /Not for the reader who muted me/);
    assert.match(headerOf(mail, 'List-Unsubscribe') ?? '', /^<https:\/\/paper\.example\.org\/unsubscribe\?token=[\w.-]+>$/);
    assert.equal(headerOf(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    assert.equal(headerOf(mail, 'Auto-Submitted'), 'auto-generated');
    assert.equal(mailsTo(notChosen.email, from).length, 0);
    assert.equal(mailsTo(banned.email, from).length, 0);
    // The next Monday's run waits, a week on.
    const [next] = await weeklyRuns();
    assert.equal(next!.run_at, nextDigestTime(new Date()).toISOString());
  });

  test('one click on its unsubscribe link stops the next', async () => {
    const from = smtp.received.length;
    await runTheMondayDigest();
    const [mail] = mailsTo(reader.email, from);
    const link = /^<https:\/\/paper\.example\.org(\/unsubscribe\?token=[\w.-]+)>$/.exec(headerOf(mail!, 'List-Unsubscribe') ?? '')![1]!;
    assert.equal((await server.api('POST', link)).status, 200);
    const prefs = await server.api('GET', '/api/users/me/email-preferences', { token: reader.token });
    assert.equal(prefs.body.digest, 'off');
    const again = smtp.received.length;
    await runTheMondayDigest();
    assert.equal(mailsTo(reader.email, again).length, 0);
  });
});
