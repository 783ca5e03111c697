// Notifications by mail (DESIGN.md, Mail), against a real SMTP server started here: a comment, a
// follower or a mention mailed as the user chose, at most one mail a quarter of an hour gathering
// what happened meanwhile, only to a verified address of a user not banned, never for a muted
// user's act; every such mail carries RFC 8058's one-click unsubscribe and Auto-Submitted.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { unsubscribedText, UNSUBSCRIBE_LINK_INVALID } from '../../shared/mail-kinds.ts';
import { banInDatabase, createUser, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { headerOf, startMailSite, type MailSite, type ReceivedMail, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';

const PUBLIC_URL = 'https://paper.example.org';
const QUARTER_HOUR = 15 * 60_000;

let site: MailSite;
let smtp: SmtpPeer;
let server: TestServer;
before(async () => {
  // Addresses taken as given: these accounts are verified without the link (its own test's work).
  site = await startMailSite({ EMAIL_VERIFICATION: 'off' });
  ({ smtp, server } = site);
});
after(() => site.close());

const db = () => server.ctx.db;
const mailsTo = (to: string, from = 0) => smtp.mailsTo(to, from);
const comment = (user: TestUser, postId: number, content: string) =>
  server.api('POST', `/api/posts/${postId}/comments`, { token: user.token, json: { content } });
const noticeJobs = () => sqlRows<{ run_at: string; payload: string }>(db(), "SELECT run_at, payload FROM jobs WHERE kind = 'notice-mail'");
const itemsOf = (user: TestUser) => sqlNumber(db(), 'SELECT COUNT(*) FROM mail_items WHERE user_id = ?', user.id);
/** Every job done: nothing queued or waiting. */
const jobsDone = () => waitFor(async () => await sqlNumber(db(), "SELECT COUNT(*) FROM jobs WHERE kind <> 'weekly-digest'") === 0, { what: 'no job left' });

/** The batch waiting out its quarter hour, due now. */
async function dueNow(): Promise<void> {
  await sqlRows(db(), "UPDATE jobs SET run_at = ? WHERE kind = 'notice-mail'", new Date(Date.now() - 1000).toISOString());
}

async function firstMail(author: TestUser, postId: number, commenter: TestUser): Promise<ReceivedMail> {
  const from = smtp.received.length;
  assert.equal((await comment(commenter, postId, 'Opening words.')).status, 201);
  await waitFor(() => mailsTo(author.email, from).length === 1, { what: 'the first notification mail' });
  return mailsTo(author.email, from)[0]!;
}

describe('a comment on one\'s article', () => {
  test('is mailed at once when no mail went out lately, with the unsubscribe headers', async () => {
    const author = await createUser(server);
    const reader = await createUser(server, { username: 'gary_snyder' });
    const post = await createPost(server, author, { title: 'Riprap and Cold Mountain' });
    const mail = await firstMail(author, post.id, reader);
    assert.equal(mail.mail.subject, 'gary_snyder commented on “Riprap and Cold Mountain”');
    assert.match(mail.mail.text ?? '', /"Opening words\."/);
    assert.match(mail.mail.text ?? '', new RegExp(`${PUBLIC_URL}/post/${post.id}`));
    assert.match(headerOf(mail, 'List-Unsubscribe') ?? '', /^<https:\/\/paper\.example\.org\/unsubscribe\?token=[\w.-]+>$/);
    assert.equal(headerOf(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    assert.equal(headerOf(mail, 'Auto-Submitted'), 'auto-generated');
    assert.match(mail.mail.html || '', /href="https:\/\/paper\.example\.org\/post\/\d+"/);
    assert.equal(await itemsOf(author), 0, 'taken by the mail');
  });

  test('what follows within the quarter hour waits, and comes as one mail', async () => {
    const author = await createUser(server);
    const first = await createUser(server, { username: 'philip_whalen' });
    const second = await createUser(server, { username: 'lew_welch' });
    const post = await createPost(server, author, { title: 'Ring of Bone, collected' });
    await firstMail(author, post.id, first);
    const [sentAt] = await sqlRows<{ mail_last_at: string }>(db(), 'SELECT mail_last_at FROM users WHERE id = ?', author.id);

    const from = smtp.received.length;
    assert.equal((await comment(second, post.id, 'A second voice.')).status, 201);
    assert.equal((await comment(first, post.id, `And @${author.username}, well said.`)).status, 201);
    await createPost(server, second, { title: 'Hermit Poems, in reply', content: `For @${author.username}, who started it. ${'Words. '.repeat(30)}` });
    assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: second.token })).status, 200);
    const jobs = (await noticeJobs()).filter((job) => JSON.parse(job.payload).user_id === author.id);
    assert.equal(jobs.length, 1, 'one batch for the four acts');
    assert.equal(Date.parse(jobs[0]!.run_at), Date.parse(sentAt!.mail_last_at) + QUARTER_HOUR);
    assert.equal(await itemsOf(author), 4, 'two comments, the mention in one of them, a mention in an article');
    assert.equal(mailsTo(author.email, from).length, 0);

    await dueNow();
    await waitFor(() => mailsTo(author.email, from).length === 1, { what: 'the gathered mail' });
    const mail = mailsTo(author.email, from)[0]!;
    // The follower is not told of: new followers are off by default. The mention in a comment
    // is the comment's line.
    assert.equal(mail.mail.subject, 'lew_welch commented on “Ring of Bone, collected”, and 2 more');
    const text = mail.mail.text ?? '';
    assert.match(text, /lew_welch commented on “Ring of Bone, collected”/);
    assert.match(text, /philip_whalen commented on “Ring of Bone, collected”/);
    assert.match(text, /lew_welch mentioned you in “Hermit Poems, in reply”/);
    assert.doesNotMatch(text, /philip_whalen mentioned you/);
    assert.doesNotMatch(text, /started following you/);
    await jobsDone();
    assert.equal(mailsTo(author.email, from).length, 1);
  });
});

describe('what the user chose', () => {
  test('new followers come once chosen; a kind turned off is neither noted nor mailed', async () => {
    const user = await createUser(server);
    const fan = await createUser(server, { username: 'michael_mcclure' });
    await server.api('POST', `/api/follow/${user.id}`, { token: fan.token });
    assert.equal(await itemsOf(user), 0, 'followers are off by default');

    await server.api('PUT', '/api/users/me/email-preferences', { token: user.token, json: { followers: true, comments: false } });
    const other = await createUser(server, { username: 'kenneth_rexroth' });
    const from = smtp.received.length;
    await server.api('POST', `/api/follow/${user.id}`, { token: other.token });
    await waitFor(() => mailsTo(user.email, from).length === 1, { what: 'the follower mail' });
    const mail = mailsTo(user.email, from)[0]!;
    assert.equal(mail.mail.subject, 'kenneth_rexroth started following you');
    assert.match(mail.mail.text ?? '', /https:\/\/paper\.example\.org\/beatnik\/kenneth_rexroth/);

    const post = await createPost(server, user);
    await comment(fan, post.id, 'Not mailed: comments are off.');
    assert.equal(await itemsOf(user), 0);
  });

  test('nothing for an unverified address or a banned user', async () => {
    const unverified = await createUser(server);
    await sqlRows(db(), 'UPDATE users SET email_verified = 0 WHERE id = ?', unverified.id);
    const banned = await createUser(server);
    const actor = await createUser(server);
    const mine = await createPost(server, unverified);
    const theirs = await createPost(server, banned);
    await banInDatabase(server, banned.id, { permanent: false, days: 3, reason: 'Spam' });
    assert.equal((await comment(actor, mine.id, 'Hello')).status, 201);
    assert.equal((await comment(actor, theirs.id, 'Hello')).status, 201);
    assert.equal(await itemsOf(unverified), 0);
    assert.equal(await itemsOf(banned), 0);
  });

  test('a muted user\'s act is not told, even when muted after it was noted', async () => {
    const author = await createUser(server);
    const starter = await createUser(server);
    const loud = await createUser(server, { username: 'loud_one' });
    const post = await createPost(server, author);
    await firstMail(author, post.id, starter);

    const from = smtp.received.length;
    await comment(loud, post.id, 'Noted, then muted.');
    assert.equal(await itemsOf(author), 1);
    assert.equal((await server.api('PUT', `/api/users/me/mutes/users/${loud.id}`, { token: author.token })).status, 200);
    await comment(loud, post.id, 'Not even noted.');
    assert.equal(await itemsOf(author), 1);
    await dueNow();
    await jobsDone();
    assert.equal(await itemsOf(author), 0, 'the batch took its item');
    assert.equal(mailsTo(author.email, from).length, 0, 'and had nothing to tell');
  });

  test('a comment deleted before its batch goes is left out', async () => {
    const author = await createUser(server);
    const starter = await createUser(server);
    const fickle = await createUser(server);
    const post = await createPost(server, author);
    await firstMail(author, post.id, starter);
    const from = smtp.received.length;
    const written = await comment(fickle, post.id, 'Second thoughts.');
    assert.equal((await server.api('DELETE', `/api/comments/${written.body.id}`, { token: fickle.token })).status, 200);
    await dueNow();
    await jobsDone();
    assert.equal(mailsTo(author.email, from).length, 0);
  });
});

describe('one-click unsubscribe', () => {
  let author: TestUser;
  let token: string;
  beforeEach(async () => {
    author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author);
    const mail = await firstMail(author, post.id, reader);
    token = /token=([\w.-]+)>$/.exec(headerOf(mail, 'List-Unsubscribe') ?? '')![1]!;
  });

  test('the page learns what the link stops; a POST stops it without signing in', async () => {
    const question = await server.api('GET', `/api/unsubscribe?token=${token}`);
    assert.equal(question.status, 200);
    assert.deepEqual(question.body, { kinds: ['comments'] });
    // As a mail client sends it (RFC 8058): a form body, no session.
    const res = await server.api('POST', `/unsubscribe?token=${token}`, {
      body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { detail: unsubscribedText(['comments']) });
    const prefs = await server.api('GET', '/api/users/me/email-preferences', { token: author.token });
    assert.deepEqual(prefs.body, { comments: false, followers: false, mentions: true, digest: 'off' });
  });

  test('a link altered or made up changes nothing', async () => {
    const [id, , signature] = token.split('.');
    for (const bad of [`${id}.cfmd.${signature}`, `${Number(id) + 1}.c.${signature}`, 'nonsense', '']) {
      const res = await server.api('POST', `/unsubscribe?token=${encodeURIComponent(bad)}`);
      assert.equal(res.status, 400, bad);
      assert.deepEqual(res.body, { detail: UNSUBSCRIBE_LINK_INVALID });
      assert.equal((await server.api('GET', `/api/unsubscribe?token=${encodeURIComponent(bad)}`)).status, 400);
    }
    const prefs = await server.api('GET', '/api/users/me/email-preferences', { token: author.token });
    assert.equal(prefs.body.comments, true);
  });
});

describe('without SMTP_URL', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer(); });
  after(() => plain.stop());

  test('nothing is noted for mail, and there is nothing to unsubscribe from', async () => {
    const author = await createUser(plain);
    const reader = await createUser(plain);
    const post = await createPost(plain, author);
    assert.equal((await plain.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'Hi' } })).status, 201);
    assert.equal(await sqlNumber(plain.ctx.db, 'SELECT COUNT(*) FROM mail_items'), 0);
    assert.equal(await sqlNumber(plain.ctx.db, 'SELECT COUNT(*) FROM jobs'), 0);
    assert.equal((await plain.api('GET', '/api/unsubscribe?token=1.c.x')).status, 404);
    assert.equal((await plain.api('POST', '/unsubscribe?token=1.c.x')).status, 404);
  });
});
