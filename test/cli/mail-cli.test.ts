// The mail commands as an operator runs them (DESIGN.md, Mail), against a real SMTP server started
// here: mail-test sends at once and prints the server's answer; mail-queue lists what waits and
// what failed and queues failed mail again; send-digest queues the digest for the readers who chose
// it. Without SMTP_URL the sending commands say so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, sqlRows, startTestServer, type TestServer } from '../helpers.ts';
import { startSmtpPeer, type SmtpPeer } from '../smtp-peer.ts';
import { ADMIN_BUNDLE, cli, query, runScript } from './cli-helpers.ts';

const PUBLIC_URL = 'https://paper.example.org';
let smtp: SmtpPeer;
let server: TestServer;

before(async () => {
  smtp = await startSmtpPeer();
  // A server whose runner never looks: what the commands queue stays to be seen.
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, PUBLIC_URL, EMAIL_VERIFICATION: 'off' }, jobs: { pollMs: 3_600_000, wakeOnQueue: false },
  });
});
after(async () => {
  await server.stop();
  await smtp.close();
});

const withMail = (args: string[]) => runScript(ADMIN_BUNDLE, server.dataDir, args, undefined, { SMTP_URL: smtp.url, PUBLIC_URL });

describe('mail-test', () => {
  test('sends now and prints the mail server\'s answer', async () => {
    const from = smtp.received.length;
    const run = await withMail(['mail-test', '--to', 'Operator@Example.org']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Sent to operator@example\.org: 250 /);
    await smtp.waitForMail(from + 1);
    assert.deepEqual(smtp.received[from]!.to, ['operator@example.org']);
    assert.equal(smtp.received[from]!.mail.subject, 'A test mail from Beatnik');
  });

  test('refuses a bad address (exit 2), and says when mail is off (exit 1)', async () => {
    const bad = await withMail(['mail-test', '--to', 'not an address']);
    assert.deepEqual([bad.code, bad.stderr], [2, 'admin: --to needs an email address (see "npm run admin -- help mail-test")\n']);
    const off = await cli(server.dataDir, ['mail-test', '--to', 'a@example.org']);
    assert.deepEqual([off.code, off.stderr], [1, 'admin: Mail is off: set SMTP_URL (and MAIL_FROM) first\n']);
  });
});

describe('mail-queue', () => {
  test('lists what waits and what failed; --retry queues a failed one again', async () => {
    const user = await createUser(server);
    assert.equal((await server.api('POST', '/api/auth/forgot-password', { json: { email: user.email } })).status, 202);
    await sqlRows(server.ctx.db,
      "INSERT INTO jobs (kind, payload, state, run_at, attempts, last_error, created_at) VALUES ('mail', ?, 'failed', ?, 9, '550 mailbox unavailable', ?)",
      JSON.stringify({ to: 'gone@example.org', subject: 'Your Beatnik password was changed', text: 't', html: 'h' }),
      new Date().toISOString(), new Date().toISOString());
    const list = await withMail(['mail-queue']);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    // The Monday digest's run waits among them.
    assert.equal(lines[0], '2 waiting, 1 failed');
    assert.ok(lines.some((line) => line.includes(`password-reset for ${user.email}`)), list.stdout);
    assert.ok(lines.some((line) => line.includes('weekly-digest for every reader who chose it')), list.stdout);
    const failed = lines.find((line) => line.includes('failed, queued'));
    assert.match(failed ?? '', /^#(\d+) failed, queued \S+, to gone@example\.org: Your Beatnik password was changed \(9 tries; last: 550 mailbox unavailable\)$/);
    const id = /^#(\d+)/.exec(failed!)![1]!;

    const retry = await withMail(['mail-queue', '--retry', id]);
    assert.deepEqual([retry.code, retry.stdout], [0, '1 mail queued again\n']);
    const [row] = await query(server.dataDir, 'SELECT state, attempts FROM jobs WHERE id = ?', Number(id));
    assert.deepEqual({ ...row }, { state: 'pending', attempts: 0 });
    const none = await withMail(['mail-queue', '--retry', id]);
    assert.deepEqual([none.code, none.stderr], [1, `admin: No failed mail with id ${id}\n`]);
  });
});

describe('send-digest', () => {
  test('queues the digest for each reader who chose it, now', async () => {
    const readers = [await createUser(server), await createUser(server)];
    for (const reader of readers) {
      await server.api('PUT', '/api/users/me/email-preferences', { token: reader.token, json: { digest: 'weekly' } });
    }
    await createUser(server); // not chosen
    const run = await withMail(['send-digest']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'The digest is queued for 2 readers: the running server sends it.\n');
    const queued = await query(server.dataDir, "SELECT payload FROM jobs WHERE kind = 'digest-mail' ORDER BY id");
    assert.deepEqual(queued.map((job) => JSON.parse(job.payload).user_id), readers.map((reader) => reader.id));
    const off = await cli(server.dataDir, ['send-digest']);
    assert.deepEqual([off.code, off.stderr], [1, 'admin: Mail is off: set SMTP_URL (and MAIL_FROM) first\n']);
  });
});
