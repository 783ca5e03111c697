// A forgotten password (DESIGN.md, Mail), against a real SMTP server started here (smtp-server),
// the mail read back by mailparser: the request answers the same whoever the address belongs to,
// the link is single use, an hour long and voided by a newer one, a reset ends every session and
// mails a notice; mail waits in the outbox while the mail server is away, and without SMTP_URL
// none of it is there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PASSWORD_SHORT_MESSAGE } from '../../shared/accounts.ts';
import { RESET_DONE, RESET_LINK_INVALID, RESET_REQUESTED } from '../../server/auth/password-reset.ts';
import { queueMail } from '../../server/mail/mail.outbox.ts';
import { createUser, loginAs, sqlNumber, sqlRows, startTestServer, type TestServer } from '../helpers.ts';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';

const PUBLIC_URL = 'https://paper.example.org';
/** Retries within the test's patience rather than a minute apart. */
const QUICK_JOBS = { pollMs: 50, retry: { firstDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 60_000 } };

let smtp: SmtpPeer;
let server: TestServer;

before(async () => {
  smtp = await startSmtpPeer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'The Paper <news@paper.example.org>', PUBLIC_URL, EMAIL_VERIFICATION: 'off' }, jobs: QUICK_JOBS });
});
after(async () => {
  await server.stop();
  await smtp.close();
});

const forgot = (email: string) => server.api('POST', '/api/auth/forgot-password', { json: { email } });
const reset = (token: string, password: string) => server.api('POST', '/api/auth/reset-password', { json: { token, password } });
const outboxEmpty = () => waitFor(async () => await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind <> 'weekly-digest'") === 0, { what: 'an empty outbox' });

const mailsTo = (to: string, from = 0) => smtp.mailsTo(to, from);

function linkIn(mail: ReceivedMail): string {
  const match = /https:\/\/paper\.example\.org\/reset-password\?token=([\w-]+)/.exec(mail.mail.text ?? '');
  assert.ok(match, `a reset link in the text part: ${mail.mail.text}`);
  return match[1]!;
}

async function resetLinkFor(email: string): Promise<string> {
  const before = smtp.received.length;
  assert.equal((await forgot(email)).status, 202);
  await waitFor(() => mailsTo(email, before).length === 1, { what: `a reset mail to ${email}` });
  return linkIn(mailsTo(email, before)[0]!);
}

describe('POST /api/auth/forgot-password', () => {
  test('answers the same for an address with an account and one without, and mails only the account', async () => {
    const user = await createUser(server);
    const before = smtp.received.length;
    const known = await forgot(user.email.toUpperCase());
    const unknown = await forgot(`nobody-${user.username}@example.com`);
    assert.equal(known.status, 202);
    assert.equal(unknown.status, 202);
    assert.deepEqual(known.body, { detail: RESET_REQUESTED });
    assert.deepEqual(unknown.body, known.body);
    assert.deepEqual([...unknown.headers.keys()].sort(), [...known.headers.keys()].sort());
    await outboxEmpty();
    const arrived = smtp.received.slice(before);
    assert.equal(arrived.length, 1, 'one mail, to the account');
    const { mail } = arrived[0]!;
    assert.deepEqual(arrived[0]!.to, [user.email]);
    assert.equal(mail.subject, 'Reset your Beatnik password');
    assert.equal(mail.from?.value[0]?.address, 'news@paper.example.org');
    assert.match(mail.messageId ?? '', /@paper\.example\.org>$/);
    assert.match(mail.text ?? '', new RegExp(`${user.username}'s account`));
    linkIn(arrived[0]!);
    // The HTML part: the same link, inline styles, nothing fetched from anywhere.
    const html = String(mail.html);
    assert.match(html, /href="https:\/\/paper\.example\.org\/reset-password\?token=[\w-]+"/);
    assert.doesNotMatch(html, /<img|<link|<script|url\(/i);
    assert.deepEqual([...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith(`${PUBLIC_URL}/`)), []);
  });

  test('takes no longer for an address with an account than for one without', async () => {
    // A server whose runner sleeps through the measurement: the requests alone are timed, not the
    // work they leave for later (which differs, and runs in the same process).
    const quiet = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL, EMAIL_VERIFICATION: 'off' }, jobs: { pollMs: 3_600_000, wakeOnQueue: false } });
    try {
      const user = await createUser(quiet);
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[10]!;
      /** One round of 21 requests each, in turn, so that whatever else the machine does weighs on both alike. */
      const round = async () => {
        const times = { known: [] as number[], unknown: [] as number[] };
        for (let i = 0; i < 21; i++) {
          for (const [which, email] of [['known', user.email], ['unknown', `nobody-${user.username}@example.com`]] as const) {
            const start = performance.now();
            assert.equal((await quiet.api('POST', '/api/auth/forgot-password', { json: { email } })).status, 202);
            times[which].push(performance.now() - start);
          }
        }
        return [median(times.known), median(times.unknown)] as const;
      };
      // Both only queue a job: no lookup, no hashing, no mail inside the request. A loaded machine
      // can spoil one round; a real difference (an argon2 hash, a lookup) spoils all three.
      const close = ([known, unknown]: readonly [number, number]) => Math.abs(known - unknown) < Math.max(3, 0.3 * Math.min(known, unknown));
      const rounds: Array<readonly [number, number]> = [];
      do rounds.push(await round()); while (!close(rounds.at(-1)!) && rounds.length < 3);
      assert.ok(close(rounds.at(-1)!), `medians of each round, known / unknown: ${rounds.map(([k, u]) => `${k.toFixed(1)} / ${u.toFixed(1)} ms`).join(', ')}`);
      assert.equal(await sqlNumber(quiet.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind = 'password-reset'"), 42 * rounds.length, 'each request queued the same job');
    } finally {
      await quiet.stop();
    }
  });

  test('refuses a malformed address, which can name no account', async () => {
    const response = await forgot('not an address');
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { detail: 'Please enter a valid email address' });
    assert.equal(await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM jobs WHERE payload LIKE '%not an address%'"), 0);
  });
});

describe('POST /api/auth/reset-password', () => {
  test('sets the new password, ends every session, mails a notice, and the link works once', async () => {
    const user = await createUser(server);
    const token = await resetLinkFor(user.email);
    const before = smtp.received.length;
    const done = await reset(token, 'a brand new secret');
    assert.equal(done.status, 200);
    assert.deepEqual(done.body, { detail: RESET_DONE });
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).status, 401, 'the old session ended');
    assert.equal((await server.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } })).status, 401);
    await loginAs(server, user.email, 'a brand new secret');
    const again = await reset(token, 'yet another secret');
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { detail: RESET_LINK_INVALID });
    await waitFor(() => mailsTo(user.email, before).length === 1, { what: 'the notice' });
    const notice = mailsTo(user.email, before)[0]!.mail;
    assert.equal(notice.subject, 'Your Beatnik password was changed');
    assert.match(notice.text ?? '', /every session of the account was signed out/);
  });

  test('a newer link voids the older one', async () => {
    const user = await createUser(server);
    const first = await resetLinkFor(user.email);
    const second = await resetLinkFor(user.email);
    assert.notEqual(first, second);
    assert.deepEqual((await reset(first, 'a brand new secret')).body, { detail: RESET_LINK_INVALID });
    assert.equal((await reset(second, 'a brand new secret')).status, 200);
  });

  test('an expired link, a made-up one and none are refused alike', async () => {
    const user = await createUser(server);
    const token = await resetLinkFor(user.email);
    await server.ctx.db.updateTable('account_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id).execute();
    for (const attempt of [token, 'made-up-token', '']) {
      const response = await reset(attempt, 'a brand new secret');
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { detail: RESET_LINK_INVALID });
    }
    await loginAs(server, user.email, user.password);
  });

  test('keeps the link when the new password breaks the rules', async () => {
    const user = await createUser(server);
    const token = await resetLinkFor(user.email);
    const short = await reset(token, 'short');
    assert.equal(short.status, 400);
    assert.deepEqual(short.body, { detail: PASSWORD_SHORT_MESSAGE });
    assert.equal((await reset(token, 'long enough now')).status, 200);
  });

  test('stored is only the link\'s hash, never the token itself, not even in a mail waiting to go', async () => {
    const user = await createUser(server);
    smtp.refuse = (address) => (address === user.email ? 451 : undefined); // tried again later: the job stays
    try {
      assert.equal((await forgot(user.email)).status, 202);
      await waitFor(async () => (await sqlRows(server.ctx.db, "SELECT id FROM jobs WHERE last_error IS NOT NULL")).length === 1, { what: 'a refused try' });
    } finally {
      smtp.refuse = () => undefined;
    }
    await waitFor(() => mailsTo(user.email).length === 1, { what: 'the mail, on the next try' });
    const token = linkIn(mailsTo(user.email)[0]!);
    const rows = await sqlRows<{ token_hash: string }>(server.ctx.db, 'SELECT token_hash FROM account_tokens WHERE user_id = ?', user.id);
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.token_hash, token);
    assert.equal((await reset(token, 'a brand new secret')).status, 200, 'the link of the mail that went is the live one');
  });

  test('a password changed another way voids the links out', async () => {
    const user = await createUser(server);
    const token = await resetLinkFor(user.email);
    const changed = await server.api('PUT', '/api/users/me/password', {
      token: user.token, json: { current_password: user.password, new_password: 'changed in settings' },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual((await reset(token, 'a brand new secret')).body, { detail: RESET_LINK_INVALID });
  });

  test('an address that names a second mailbox cannot be registered', async () => {
    for (const email of ['x<victim@example.com>', 'a,victim@example.com', 'a:victim@example.com;']) {
      const response = await server.api('POST', '/api/auth/register', { json: { username: 'sly_one', email, password: 'password123' } });
      assert.equal(response.status, 400, email);
      assert.deepEqual(response.body, { detail: 'Please enter a valid email address' });
    }
  });
});

describe('the outbox', () => {
  test('keeps mail while the mail server is away and sends it when it is back', async () => {
    const away = await startSmtpPeer();
    const port = away.port;
    const url = away.url;
    await away.close();
    const offline = await startTestServer({ env: { SMTP_URL: url, PUBLIC_URL, EMAIL_VERIFICATION: 'off' }, jobs: QUICK_JOBS });
    let back: SmtpPeer | undefined;
    try {
      const user = await createUser(offline);
      assert.equal((await offline.api('POST', '/api/auth/forgot-password', { json: { email: user.email } })).status, 202);
      await waitFor(async () => await sqlNumber(offline.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind = 'password-reset' AND attempts >= 2") === 1,
        { what: 'the mail tried twice and kept' });
      const kept = await sqlRows<{ state: string; last_error: string }>(offline.ctx.db, "SELECT state, last_error FROM jobs WHERE kind = 'password-reset'");
      assert.notEqual(kept[0]!.state, 'failed');
      assert.match(kept[0]!.last_error, /ECONNREFUSED/);
      back = await startSmtpPeer(port);
      await back.waitForMail(1);
      assert.deepEqual(back.received[0]!.to, [user.email]);
      await waitFor(async () => await sqlNumber(offline.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind <> 'weekly-digest'") === 0, { what: 'an empty outbox' });
    } finally {
      // The server first: its pooled SMTP connection would hold the peer's close for half a minute.
      await offline.stop();
      await back?.close();
    }
  });

  test('mail queued by a transaction that commits after the wake-up still goes within seconds, not at the poll', async () => {
    const slow = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL, EMAIL_VERIFICATION: 'off' }, jobs: { pollMs: 3_600_000 } });
    try {
      const from = smtp.received.length;
      await slow.ctx.db.transaction().execute(async (trx) => {
        await queueMail(trx, { to: 'late@example.org', subject: 'Late', text: 'Late.', html: '<p>Late.</p>' });
        // Still open when the runner wakes (on PostgreSQL it looks on another connection and finds nothing).
        await new Promise((resolve) => setTimeout(resolve, 150));
      });
      await waitFor(() => mailsTo('late@example.org', from).length === 1, { timeout: 8_000, what: 'the late mail' });
    } finally {
      await slow.stop();
    }
  });

  test('gives up at once on a message the mail server refuses for good at DATA', async () => {
    const user = await createUser(server);
    smtp.refuseMessage = (to) => (to.includes(user.email) ? 554 : undefined);
    try {
      assert.equal((await forgot(user.email)).status, 202);
      await waitFor(async () => await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM jobs WHERE state = 'failed'") === 1, { what: 'a failed mail' });
      const [failed] = await sqlRows<{ attempts: number; last_error: string }>(server.ctx.db, "SELECT attempts, last_error FROM jobs WHERE state = 'failed'");
      assert.equal(failed!.attempts, 1);
      assert.match(failed!.last_error, /554/);
    } finally {
      smtp.refuseMessage = () => undefined;
      await server.ctx.db.deleteFrom('jobs').execute();
    }
  });

  test('gives up at once on an address the mail server refuses for good, and keeps it as failed', async () => {
    const user = await createUser(server);
    smtp.refuse = (address) => (address === user.email ? 550 : undefined);
    try {
      assert.equal((await forgot(user.email)).status, 202);
      await waitFor(async () => await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM jobs WHERE state = 'failed'") === 1, { what: 'a failed mail' });
      const [failed] = await sqlRows<{ attempts: number; last_error: string }>(server.ctx.db, "SELECT attempts, last_error FROM jobs WHERE state = 'failed'");
      assert.equal(failed!.attempts, 1);
      assert.match(failed!.last_error, /550/);
    } finally {
      smtp.refuse = () => undefined;
      await server.ctx.db.deleteFrom('jobs').execute();
    }
  });
});

describe('throttles', () => {
  test('three requests an hour per address, ten per client', async () => {
    const throttled = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL, RATE_LIMITS: 'on', EMAIL_VERIFICATION: 'off' }, jobs: QUICK_JOBS });
    try {
      const ask = (email: string) => throttled.api('POST', '/api/auth/forgot-password', { json: { email } });
      for (let i = 0; i < 3; i++) assert.equal((await ask('same@example.com')).status, 202);
      const fourth = await ask('SAME@example.com');
      assert.equal(fourth.status, 429);
      assert.match(fourth.body.detail, /^Too many attempts\. Try again in \d+ minutes\.$/);
      for (let i = 0; i < 6; i++) assert.equal((await ask(`other${i}@example.com`)).status, 202);
      assert.equal((await ask('eleventh@example.com')).status, 429, 'ten an hour from one client, the refused one included');
    } finally {
      await throttled.stop();
    }
  });
});

describe('without SMTP_URL', () => {
  test('there is no forgotten-password route, and the client is told mail is off', async () => {
    const plain = await startTestServer();
    try {
      assert.equal((await plain.api('POST', '/api/auth/forgot-password', { json: { email: 'a@example.com' } })).status, 404);
      assert.equal((await plain.api('POST', '/api/auth/reset-password', { json: { token: 'x', password: 'whatever1' } })).status, 404);
      assert.equal((await plain.api('GET', '/api/config')).body.mail, false);
      assert.equal((await server.api('GET', '/api/config')).body.mail, true);
    } finally {
      await plain.stop();
    }
  });
});
