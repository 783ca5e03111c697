// Request lines (docs/operations.md, Logs): at info only server errors and slow requests, never a
// health check or a client's 4xx; at debug every request.
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { SLOW_REQUEST_MS } from '../../server/log.ts';
import { startTestServer, type TestServer } from '../helpers.ts';
import { logSink, type LogLine } from '../log-sink.ts';

async function serverLoggingAt(level: string): Promise<{ server: TestServer; lines: LogLine[] }> {
  const sink = logSink();
  return { server: await startTestServer({ env: { LOG_LEVEL: level }, logTo: sink.stream }), lines: sink.lines };
}

const requestLines = (lines: LogLine[]) => lines.filter((l) => typeof l.status === 'number');

/** A request whose body arrives after `ms`: slow from the server's side, as a slow upload is. */
function trickledRequest(url: string, ms: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let reply = '';
    socket.on('data', (chunk) => { reply += chunk; });
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
    socket.write('POST /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n'
      + 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{');
    delay(ms).then(() => socket.write('}'), reject);
  });
}

test('at info, successes, 4xx and health checks write no request line', async () => {
  const { server, lines } = await serverLoggingAt('info');
  try {
    assert.equal((await server.api('GET', '/api/health')).status, 200);
    assert.equal((await server.api('GET', '/api/posts')).status, 200);
    assert.equal((await server.api('GET', '/api/nothing')).status, 404);
    assert.equal((await server.api('POST', '/api/posts', { json: {} })).status, 401);
    assert.equal((await fetch(`${server.url}/wp-login.php`)).status, 404);
    assert.deepEqual(requestLines(lines), []);
  } finally {
    await server.stop();
  }
});

test('at info, a slow request writes one warn line with its time', async () => {
  const { server, lines } = await serverLoggingAt('info');
  try {
    const reply = await trickledRequest(server.url, SLOW_REQUEST_MS + 100);
    assert.match(reply, /^HTTP\/1\.1 404/);
    const logged = requestLines(lines);
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.msg, 'slow request');
    assert.equal(logged[0]!.level, 40, 'warn');
    assert.equal(logged[0]!.path, '/api/nothing');
    assert.ok(Number(logged[0]!.ms) > SLOW_REQUEST_MS);
  } finally {
    await server.stop();
  }
});

test('at info, a server error writes an error line; a failing health check shows', async () => {
  const { server, lines } = await serverLoggingAt('info');
  try {
    server.ctx.sqlite.close(); // the database becomes unusable under the running server
    assert.equal((await server.api('GET', '/api/health')).status, 503);
    const logged = requestLines(lines);
    assert.equal(logged.length, 1);
    assert.deepEqual([logged[0]!.msg, logged[0]!.level, logged[0]!.path, logged[0]!.status],
      ['server error', 50, '/api/health', 503]);
    assert.match(String(logged[0]!.request_id), /^[0-9a-f-]{36}$/);
  } finally {
    await server.stop();
  }
});

test('at debug, every request writes a line, health checks included', async () => {
  const { server, lines } = await serverLoggingAt('debug');
  try {
    await server.api('GET', '/api/health');
    await server.api('GET', '/api/nothing?q=secret');
    const logged = requestLines(lines).map((l) => [l.msg, l.method, l.path, l.status]);
    assert.deepEqual(logged, [['request', 'GET', '/api/health', 200], ['request', 'GET', '/api/nothing', 404]],
      'query strings stay out of the logs');
  } finally {
    await server.stop();
  }
});
