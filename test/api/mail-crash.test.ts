// The outbox survives a kill -9 (DESIGN.md, Mail): the built server is killed while it is handing
// a mail to an SMTP server that never answers; started again, with a real SMTP server on that
// port now, it sends the mail. Runs the production bundle (npm run build), on either database.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SERVER_BUNDLE, apiCall, openDataDirDatabase, spawnServer, sqlNumber, stopProcess, type SpawnedServer } from '../helpers.ts';
import { startSmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';

/** A mail server that takes the connection and never says a word. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => { sockets.add(socket); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

test('a mail being sent when the server is killed is sent when it starts again', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-mail-crash-'));
  const silent = await silentServer();
  const env = { DATA_DIR: dataDir, SMTP_URL: `smtp://beatnik:secret@127.0.0.1:${silent.port}`, PUBLIC_URL: 'https://paper.example.org', RATE_LIMITS: 'off', EMAIL_VERIFICATION: 'off' };
  const db = await openDataDirDatabase(dataDir);
  let first: SpawnedServer | undefined;
  try {
    first = await spawnServer([SERVER_BUNDLE], env);
    const email = 'gregory@example.com';
    const registered = await apiCall(first.url, 'POST', '/api/auth/register', { json: { username: 'gregory_corso', email, password: 'password123' } });
    assert.equal(registered.status, 201);
    assert.equal((await apiCall(first.url, 'POST', '/api/auth/forgot-password', { json: { email } })).status, 202);
    await waitFor(async () => await sqlNumber(db, "SELECT COUNT(*) FROM jobs WHERE kind = 'password-reset' AND state = 'running'") === 1,
      { what: 'the reset mail being handed to the silent mail server' });
    const exited = new Promise((resolve) => first!.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    await silent.close();
    const smtp = await startSmtpPeer(silent.port);
    const second = await spawnServer([SERVER_BUNDLE], env);
    try {
      const [arrived] = await smtp.waitForMail(1).catch((err: Error) => { throw new Error(`${err.message}\n${second.stdout()}`); });
      assert.deepEqual(arrived!.to, [email]);
      assert.equal(arrived!.mail.subject, 'Reset your Beatnik password');
      await waitFor(async () => await sqlNumber(db, "SELECT COUNT(*) FROM jobs WHERE kind <> 'weekly-digest'") === 0, { what: 'an empty outbox' });
    } finally {
      await stopProcess(second.child);
      await smtp.close();
    }
  } finally {
    // Should the test fail before its kill, no server outlives it.
    if (first && first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    await db.destroy();
    await silent.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
