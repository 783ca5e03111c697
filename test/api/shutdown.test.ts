// SIGTERM under keep-alive load, on the real entry point (DESIGN.md, Edges: Shutdown): the
// server stops accepting, answers what is in flight with `Connection: close`, closes idle
// keep-alive sockets cleanly and exits 0 within 10 s. No client sees a reset or a hang-up.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SERVER_BUNDLE, spawnServer } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';

interface RawSocket {
  socket: net.Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves when the socket is closed, with the error it saw, if any. */
  closed: Promise<Error | undefined>;
}

function rawSocket(port: number): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let error: Error | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { data += chunk; });
    socket.on('error', (err) => { error = err; });
    const closed = new Promise<Error | undefined>((done) => socket.on('close', () => done(error)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** A keep-alive socket that has been answered once and is now idle. */
async function idleSocket(port: number): Promise<RawSocket> {
  const raw = await rawSocket(port);
  raw.socket.write('GET /api/health HTTP/1.1\r\nHost: beatnik\r\n\r\n');
  await waitFor(() => raw.received().endsWith('{"status":"ok"}'), { what: 'the first answer' });
  assert.match(raw.received(), /keep-alive/i);
  return raw;
}

/** A request whose body is half sent: in flight until `finish()`. */
async function slowRequest(port: number): Promise<RawSocket & { finish(): void }> {
  const raw = await rawSocket(port);
  const body = JSON.stringify({ note: 'x'.repeat(64) });
  raw.socket.write(`POST /api/nothing HTTP/1.1\r\nHost: beatnik\r\nContent-Type: application/json\r\n`
    + `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  return { ...raw, finish: () => raw.socket.write(body.slice(10)) };
}

interface Tally { ok: number; closeAnswers: number; refused: number; resets: number; hangUps: number; other: string[] }

/** Requests back to back on a keep-alive agent, until the server refuses connections. */
async function hammer(agent: http.Agent, port: number, tally: Tally, limit: number): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    try {
      const connection = await new Promise<string | undefined>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/api/posts', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers.connection));
          res.on('error', reject);
        }).on('error', reject);
      });
      tally.ok += 1;
      if (connection === 'close') tally.closeAnswers += 1;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ECONNREFUSED') tally.refused += 1; // the port is closed: nothing was sent
      else if (e.message === 'socket hang up') tally.hangUps += 1;
      else if (e.code === 'ECONNRESET' || e.code === 'EPIPE') tally.resets += 1;
      else tally.other.push(`${e.code}: ${e.message}`);
      if (e.code === 'ECONNREFUSED') return;
    }
    // Some workers pause now and then, so that sockets sit idle at the moment SIGTERM lands.
    if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

test('SIGTERM under keep-alive load: no resets, in-flight answered with Connection: close, exit 0 within 10 s', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-shutdown-'));
  try {
    const { child, url, stdout } = await spawnServer([SERVER_BUNDLE], { DATA_DIR: dataDir });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const port = Number(new URL(url).port);

    const idle = await Promise.all(Array.from({ length: 4 }, () => idleSocket(port)));
    const slow = await Promise.all(Array.from({ length: 3 }, () => slowRequest(port)));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const tally: Tally = { ok: 0, closeAnswers: 0, refused: 0, resets: 0, hangUps: 0, other: [] };
    const workers = Array.from({ length: 6 }, () => hammer(agent, port, tally, 5_000));
    await waitFor(() => tally.ok >= 300, { what: 'the load to run' });

    const signalled = Date.now();
    child.kill('SIGTERM');
    await waitFor(() => stdout().includes('"shutting down"'), { what: 'the server to start shutting down' });
    // It stops accepting at once, while the slow requests are still running.
    await assert.rejects(rawSocket(port), { code: 'ECONNREFUSED' });
    for (const request of slow) request.finish();

    const [code] = await Promise.all([exited, ...workers]);
    const elapsed = Date.now() - signalled;
    agent.destroy();

    for (const request of slow) {
      assert.equal(await request.closed, undefined, 'the slow request saw no error');
      assert.match(request.received(), /^HTTP\/1\.1 404 /);
      assert.match(request.received(), /\r\nConnection: close\r\n/i);
    }
    for (const socket of idle) {
      assert.equal(await socket.closed, undefined, 'an idle socket is closed cleanly, not reset');
      assert.equal(socket.received().match(/^HTTP\/1\.1 /gm)?.length, 1, 'and was sent nothing more');
    }
    assert.deepEqual({ resets: tally.resets, hangUps: tally.hangUps, other: tally.other },
      { resets: 0, hangUps: 0, other: [] }, JSON.stringify(tally));
    assert.ok(tally.closeAnswers > 0, 'busy keep-alive sockets were told Connection: close');
    assert.equal(code, 0);
    assert.ok(elapsed < 10_000, `exited after ${elapsed} ms`);
    assert.match(stdout(), /"msg":"stopped"/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
