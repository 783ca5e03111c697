// Verified addresses (DESIGN.md, Mail), against a real SMTP server started here: registering
// mails a link; until it is followed, publishing, commenting and rating answer 403 while reading,
// following, drafts and the profile go on; a new link voids the older; a changed address is verified
// anew and the old one is told; accounts from before, and with EMAIL_VERIFICATION=off, are verified.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ALREADY_VERIFIED_MESSAGE, EMAIL_VERIFIED_MESSAGE, VERIFICATION_SENT_MESSAGE, VERIFY_EMAIL_FIRST_MESSAGE,
  VERIFY_LINK_INVALID_MESSAGE,
} from '../../shared/accounts.ts';
import { createUser, multipart, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';

const PUBLIC_URL = 'https://paper.example.org';
const QUICK_JOBS = { pollMs: 50, retry: { firstDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 60_000 } };

let smtp: SmtpPeer;
let server: TestServer;
let author: TestUser;
let article: { id: number };

before(async () => {
  smtp = await startSmtpPeer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL, RATE_LIMITS: 'on' }, jobs: QUICK_JOBS });
  author = await createUser(server);
  await verifyInDatabase(author.id);
  article = await createPost(server, author);
});
after(async () => {
  await server.stop();
  await smtp.close();
});

async function verifyInDatabase(userId: number): Promise<void> {
  await sqlRows(server.ctx.db, 'UPDATE users SET email_verified = 1 WHERE id = ?', userId);
}

const mailsTo = (to: string, from = 0) => smtp.mailsTo(to, from);

async function nextMailTo(to: string, from: number): Promise<ReceivedMail> {
  await waitFor(() => mailsTo(to, from).length >= 1, { what: `a mail to ${to}` });
  return mailsTo(to, from)[0]!;
}

function verifyLinkIn(mail: ReceivedMail): string {
  const match = /https:\/\/paper\.example\.org\/verify-email\?token=([\w-]+)/.exec(mail.mail.text ?? '');
  assert.ok(match, `a verification link in the text part: ${mail.mail.text}`);
  return match[1]!;
}

/** A new account and the token of the link its registration mailed. */
async function registered(): Promise<{ user: TestUser; token: string }> {
  const from = smtp.received.length;
  const user = await createUser(server);
  return { user, token: verifyLinkIn(await nextMailTo(user.email, from)) };
}

const verify = (token: string) => server.api('POST', '/api/auth/verify-email', { json: { token } });
const me = async (user: TestUser) => (await server.api('GET', '/api/users/me', { token: user.token })).body;

describe('registration with mail on', () => {
  test('mails a link to the address, and the account is not verified until it is followed', async () => {
    const from = smtp.received.length;
    const user = await createUser(server);
    assert.equal((await me(user)).email_verified, false);
    const mail = await nextMailTo(user.email, from);
    assert.equal(mail.mail.subject, 'Confirm your email address for Beatnik');
    assert.match(mail.mail.html || '', /href="https:\/\/paper\.example\.org\/verify-email\?token=[\w-]+"/);
    // A verification is no mail one unsubscribes from (DESIGN.md, Mail).
    assert.equal(mail.mail.headers.get('list-unsubscribe'), undefined);

    const answer = await verify(verifyLinkIn(mail));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { detail: EMAIL_VERIFIED_MESSAGE });
    assert.equal((await me(user)).email_verified, true);
    const stored = await sqlNumber(server.ctx.db, 'SELECT email_verified FROM users WHERE id = ?', user.id);
    assert.equal(stored, 1);
  });

  test('a link is single use, and a made-up or missing token verifies nothing', async () => {
    const { token } = await registered();
    assert.equal((await verify(token)).status, 200);
    for (const bad of [token, 'x'.repeat(43), '']) {
      const again = await verify(bad);
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { detail: VERIFY_LINK_INVALID_MESSAGE });
    }
  });

  test('an expired link verifies nothing', async () => {
    const { user, token } = await registered();
    await sqlRows(server.ctx.db, "UPDATE account_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ?", user.id);
    assert.equal((await verify(token)).status, 400);
    assert.equal((await me(user)).email_verified, false);
  });
});

describe('until the address is verified', () => {
  let user: TestUser;
  let token: string;
  before(async () => ({ user, token } = await registered()));

  test('publishing, commenting and rating answer 403 and write nothing', async () => {
    const posts = await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', user.id);
    const writes = [
      server.api('POST', '/api/posts', { token: user.token, body: multipart(articleFields()) }),
      server.api('POST', `/api/posts/${article.id}/comments`, { token: user.token, json: { content: 'First!' } }),
      server.api('POST', `/api/posts/${article.id}/rate`, { token: user.token, json: { rating: 5 } }),
    ];
    for (const res of await Promise.all(writes)) {
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { detail: VERIFY_EMAIL_FIRST_MESSAGE });
    }
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', user.id), posts);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM comments WHERE author_id = ?', user.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM ratings WHERE user_id = ?', user.id), 0);
  });

  test('a draft cannot be published either, but is saved', async () => {
    const draft = await server.api('POST', '/api/posts', { token: user.token, body: multipart({ ...articleFields(), draft: 'true' }) });
    assert.equal(draft.status, 201);
    const publish = await server.api('POST', `/api/posts/${draft.body.id}/publish`, { token: user.token });
    assert.equal(publish.status, 403);
    assert.deepEqual(publish.body, { detail: VERIFY_EMAIL_FIRST_MESSAGE });
  });

  test('reading, following and editing the profile go on', async () => {
    assert.equal((await server.api('GET', `/api/posts/${article.id}`, { token: user.token })).status, 200);
    assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: user.token })).status, 200);
    const profile = await server.api('PUT', '/api/users/me', { token: user.token, json: { bio: 'Reading first.' } });
    assert.equal(profile.status, 200);
  });

  test('once verified, the same writes go through', async () => {
    assert.equal((await verify(token)).status, 200);
    const comment = await server.api('POST', `/api/posts/${article.id}/comments`, { token: user.token, json: { content: 'Now I may.' } });
    assert.equal(comment.status, 201);
    const rating = await server.api('POST', `/api/posts/${article.id}/rate`, { token: user.token, json: { rating: 4 } });
    assert.equal(rating.status, 200);
  });
});

describe('POST /api/auth/resend-verification', () => {
  const resend = (user: TestUser) => server.api('POST', '/api/auth/resend-verification', { token: user.token });

  test('mails a new link, which voids the older one', async () => {
    const { user, token: first } = await registered();
    const from = smtp.received.length;
    const res = await resend(user);
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, { detail: VERIFICATION_SENT_MESSAGE });
    const second = verifyLinkIn(await nextMailTo(user.email, from));
    assert.notEqual(second, first);
    assert.equal((await verify(first)).status, 400);
    assert.equal((await verify(second)).status, 200);
  });

  test('is refused when already verified, and without a session', async () => {
    const verified = await resend(author);
    assert.equal(verified.status, 409);
    assert.deepEqual(verified.body, { detail: ALREADY_VERIFIED_MESSAGE });
    assert.equal((await server.api('POST', '/api/auth/resend-verification')).status, 401);
  });

  test('is throttled to 3 an hour per account', async () => {
    const { user } = await registered();
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await resend(user)).status);
    assert.deepEqual(answers, [202, 202, 202, 429]);
    // Another account is counted apart.
    const { user: other } = await registered();
    assert.equal((await resend(other)).status, 202);
  });
});

describe('a changed address', () => {
  test('is verified anew, its old address told, and the old address\'s link void', async () => {
    const { user, token: oldLink } = await registered();
    const from = smtp.received.length;
    const newEmail = `new-${user.email}`;
    const changed = await server.api('PUT', '/api/users/me/email', { token: user.token, json: { email: newEmail, password: user.password } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.user.email_verified, false);

    const notice = await nextMailTo(user.email, from);
    assert.equal(notice.mail.subject, 'Your Beatnik email address was changed');
    assert.match(notice.mail.text ?? '', new RegExp(`from ${user.email} to ${newEmail}`));
    const newLink = verifyLinkIn(await nextMailTo(newEmail, from));

    assert.equal((await verify(oldLink)).status, 400);
    const comment = await server.api('POST', `/api/posts/${article.id}/comments`, { token: user.token, json: { content: 'Hello' } });
    assert.equal(comment.status, 403);
    assert.equal((await verify(newLink)).status, 200);
    assert.equal((await me(user)).email_verified, true);
  });

  test('of a verified account is verified anew too', async () => {
    const { user } = await registered(); // its link has come: what comes next is the change's
    await verifyInDatabase(user.id);
    const from = smtp.received.length;
    const newEmail = `moved-${user.email}`;
    await server.api('PUT', '/api/users/me/email', { token: user.token, json: { email: newEmail, password: user.password } });
    assert.equal((await me(user)).email_verified, false);
    verifyLinkIn(await nextMailTo(newEmail, from));
    assert.equal((await nextMailTo(user.email, from)).mail.subject, 'Your Beatnik email address was changed');
  });
});

describe('accounts from before, or from the CLI', () => {
  test('count as verified: the column\'s default', async () => {
    const [row] = await server.ctx.db.insertInto('users').values({
      username: 'old_timer', username_key: 'old_timer', email: 'old@example.com', password_hash: 'x', avatar: null, created_at: new Date().toISOString(),
    }).returning('email_verified').execute();
    assert.equal(row!.email_verified, 1);
  });
});

describe('with EMAIL_VERIFICATION=off', () => {
  let quiet: TestServer;
  before(async () => {
    quiet = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL, EMAIL_VERIFICATION: 'off' }, jobs: QUICK_JOBS });
  });
  after(() => quiet.stop());

  test('a new account is taken as verified and mailed no link; a change of address still tells the old one', async () => {
    const from = smtp.received.length;
    const user = await createUser(quiet);
    assert.equal((await quiet.api('GET', '/api/users/me', { token: user.token })).body.email_verified, true);
    await createPost(quiet, user);
    const newEmail = `other-${user.email}`;
    await quiet.api('PUT', '/api/users/me/email', { token: user.token, json: { email: newEmail, password: user.password } });
    await nextMailTo(user.email, from);
    await waitFor(async () => await sqlNumber(quiet.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind <> 'weekly-digest'") === 0, { what: 'an empty outbox' });
    assert.equal(mailsTo(newEmail, from).length, 0);
    assert.equal(mailsTo(user.email, from).length, 1);
  });
});

describe('without SMTP_URL', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer(); });
  after(() => plain.stop());

  test('accounts are verified, and the verification routes are not there', async () => {
    const user = await createUser(plain);
    assert.equal((await plain.api('GET', '/api/users/me', { token: user.token })).body.email_verified, true);
    assert.equal((await plain.api('POST', '/api/auth/verify-email', { json: { token: 'x' } })).status, 404);
    assert.equal((await plain.api('POST', '/api/auth/resend-verification', { token: user.token })).status, 404);
  });
});
