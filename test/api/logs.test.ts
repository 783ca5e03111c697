// Request lines (docs/operations.md, Logs): at info only server errors and slow requests, never a
// health check or a client's 4xx; at debug every request.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { SLOW_REQUEST_MS } from '../../server/log.ts';
import type { TestServer } from '../helpers.ts';
import { withServerLogs, type LogLine } from '../log-sink.ts';
import { waitFor } from '../wait-for.ts';

/** The request lines a server logging at `level` wrote while `requests` ran. */
async function requestLinesAt(
  level: string, requests: (server: TestServer, linesSoFar: readonly LogLine[]) => Promise<void>,
): Promise<LogLine[]> {
  const { lines } = await withServerLogs({ LOG_LEVEL: level }, requests);
  return lines.filter((l) => typeof l.status === 'number');
}

/**
 * A request whose headers and first byte are sent now; its body ends when `finish()` is called.
 * Slow from the server's side, as a slow upload is.
 */
function trickledRequest(url: string): { reply: Promise<string>; finish(): void } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const reply = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  socket.write('POST /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n'
    + 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{');
  return { reply, finish: () => socket.write('}') };
}

test('at info, successes, 4xx and health checks write no request line', async () => {
  const logged = await requestLinesAt('info', async (server) => {
    assert.equal((await server.api('GET', '/api/health')).status, 200);
    assert.equal((await server.api('GET', '/api/posts')).status, 200);
    assert.equal((await server.api('GET', '/api/nothing')).status, 404);
    assert.equal((await server.api('POST', '/api/posts', { json: {} })).status, 401);
    assert.equal((await fetch(`${server.url}/assets/wp-login.php`)).status, 404);
  });
  assert.deepEqual(logged, []);
});

test('at info, a slow request writes one warn line with its time', async (t) => {
  // The server's clock is mocked: the request takes SLOW_REQUEST_MS + 100 ms without the test
  // waiting for them.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const logged = await requestLinesAt('info', async (server) => {
    const arrived = once(server.server, 'request');
    const request = trickledRequest(server.url);
    await arrived; // its time is running
    t.mock.timers.tick(SLOW_REQUEST_MS + 100);
    request.finish();
    assert.match(await request.reply, /^HTTP\/1\.1 404/);
  });
  assert.equal(logged.length, 1);
  assert.deepEqual([logged[0]!.msg, logged[0]!.level, logged[0]!.path], ['slow request', 40, '/api/nothing']);
  assert.ok(Number(logged[0]!.ms) > SLOW_REQUEST_MS);
});

test('at info, a server error writes an error line; a failing health check shows', async () => {
  const logged = await requestLinesAt('info', async (server, linesSoFar) => {
    // The refresh that runs at start must not be cut off mid-query: a pool closed under a waiting
    // query never answers it (PostgreSQL's pg-pool), and the server's close would wait for it.
    await waitFor(() => linesSoFar.some((l) => l.msg === 'rankings refreshed'), { what: 'the first ranking refresh' });
    await server.ctx.db.destroy(); // the database becomes unusable under the running server
    assert.equal((await server.api('GET', '/api/health')).status, 503);
  });
  assert.equal(logged.length, 1);
  assert.deepEqual([logged[0]!.msg, logged[0]!.level, logged[0]!.path, logged[0]!.status],
    ['server error', 50, '/api/health', 503]);
  assert.match(String(logged[0]!.request_id), /^[0-9a-f-]{36}$/);
});

test('at debug, every request writes a line, health checks included', async () => {
  const logged = await requestLinesAt('debug', async (server) => {
    await server.api('GET', '/api/health');
    await server.api('GET', '/api/nothing?q=secret');
  });
  assert.deepEqual(logged.map((l) => [l.msg, l.method, l.path, l.status]),
    [['request', 'GET', '/api/health', 200], ['request', 'GET', '/api/nothing', 404]],
    'query strings stay out of the logs');
});
