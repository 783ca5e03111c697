// The client's address (DESIGN.md, Edges: Client IP): X-Forwarded-For counts only from the
// proxies TRUSTED_PROXY names. Throttles and logs key on that one address.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestServer } from '../helpers.ts';
import { withServerLogs } from '../log-sink.ts';

/** 61 anonymous writes, each claiming another address; the write throttle allows 60 a minute. */
async function floodFromRotatingAddresses(server: TestServer): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 61; i += 1) {
    const res = await server.api('POST', '/api/posts/999/comments', {
      json: { content: 'spam' }, headers: { 'x-forwarded-for': `203.0.113.${i}` },
    });
    statuses.push(res.status);
  }
  return statuses;
}

test('by default X-Forwarded-For is ignored: rotating it does not escape the throttle', async () => {
  const { result: statuses, lines } = await withServerLogs({ RATE_LIMITS: 'on', LOG_LEVEL: 'debug' }, floodFromRotatingAddresses);
  assert.deepEqual(new Set(statuses.slice(0, 60)), new Set([401]));
  assert.equal(statuses[60], 429);
  const ips = new Set(lines.filter((l) => l.msg === 'request').map((l) => l.ip));
  assert.deepEqual(ips, new Set(['127.0.0.1']), 'the log names the peer, not the header');
});

test('an ignored X-Forwarded-For is said once, in one log line, never as a stack on stderr', async (t) => {
  const stderr = t.mock.method(console, 'error', () => {});
  const { lines } = await withServerLogs({ RATE_LIMITS: 'on', LOG_LEVEL: 'info' }, async (server) => {
    for (const address of ['203.0.113.1', '203.0.113.2']) {
      const res = await server.api('POST', '/api/auth/login', {
        json: { email: 'nobody@example.com', password: 'whatever1' }, headers: { 'x-forwarded-for': address },
      });
      assert.equal(res.status, 401);
    }
  });
  assert.equal(stderr.mock.callCount(), 0);
  const said = lines.filter((l) => String(l.msg).startsWith('X-Forwarded-For ignored'));
  assert.deepEqual(said.map((l) => [l.level, l.ip]), [[40, '127.0.0.1']]);
});

test('TRUSTED_PROXY=loopback: a proxy on this host tells the client address', async () => {
  const { result: statuses, lines } = await withServerLogs(
    { RATE_LIMITS: 'on', LOG_LEVEL: 'debug', TRUSTED_PROXY: 'loopback' }, floodFromRotatingAddresses);
  assert.deepEqual(new Set(statuses), new Set([401]), 'each address has its own allowance');
  // Every request's line: 'request', or 'slow request' for one a loaded machine kept past the mark.
  const logged = lines.filter((l) => l.path === '/api/posts/999/comments');
  assert.equal(logged.length, 61);
  assert.equal(logged[7]!.ip, '203.0.113.7');
});

test('a trusted proxy is believed only for the hops it adds', async () => {
  const { lines } = await withServerLogs({ LOG_LEVEL: 'debug', TRUSTED_PROXY: 'loopback' }, async (server) => {
    // The client forged the first entry; the proxy on loopback appended the address it saw.
    await server.api('GET', '/api/health', { headers: { 'x-forwarded-for': '10.9.9.9, 198.51.100.4' } });
  });
  assert.equal(lines.find((l) => l.path === '/api/health')?.ip, '198.51.100.4');
});
