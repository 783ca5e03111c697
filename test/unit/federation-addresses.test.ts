// No delivery reaches a private address (DESIGN.md, The fediverse): the inbox is checked with
// Fedify's own rule before anything is sent, and every request a delivery makes while it runs
// (Fedify follows an inbox's redirects itself, unchecked) goes through the same check; and none
// of them outlives the delivery's deadline.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { guardedRequests, privateAddressRefusal, type RequestScope } from '../../server/federation/federation.addresses.ts';

test('loopback, private, link-local, mapped and NAT64 addresses are refused; public ones and unresolved names are not', async () => {
  const refused = ['https://127.0.0.1/inbox', 'https://localhost:8443/inbox', 'https://[::1]/inbox', 'https://10.1.2.3/inbox',
    'https://192.168.0.10/inbox', 'https://169.254.169.254/latest', 'https://[::ffff:127.0.0.1]/inbox', 'https://[fe80::1]/inbox',
    'https://[64:ff9b::a00:1]/inbox', 'https://0x7f.1/inbox'];
  for (const url of refused) assert.ok(await privateAddressRefusal(new URL(url)), url);
  assert.equal(await privateAddressRefusal(new URL('https://127.0.0.1:4443/inbox')), '127.0.0.1:4443: Invalid or private address: 127.0.0.1');
  for (const url of ['https://8.8.8.8/inbox', 'https://[2606:4700::1111]/inbox']) assert.equal(await privateAddressRefusal(new URL(url)), undefined, url);
  // Not resolvable now: no refusal (the request fails by itself, and is retried).
  assert.equal(await privateAddressRefusal(new URL('https://nowhere.invalid/inbox')), undefined);
});

test('inside a delivery every request to a private address fails before it connects; outside, requests are left alone', async () => {
  let served = 0;
  const server = createServer((_req, res) => { served += 1; res.end('ok'); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inbox`;
  try {
    const scope: RequestScope = { publicOnly: true, deadline: AbortSignal.timeout(10_000) };
    await assert.rejects(guardedRequests(scope, () => fetch(url, { method: 'POST', body: '{}' })), /Refused: 127\.0\.0\.1:\d+: Invalid or private address/);
    assert.match(scope.refusal ?? '', /^127\.0\.0\.1:\d+: Invalid or private address: 127\.0\.0\.1$/);
    // A second hop (a redirect Fedify follows is a request of its own) is checked as the first.
    const nested: RequestScope = { publicOnly: true, deadline: AbortSignal.timeout(10_000) };
    await assert.rejects(guardedRequests(nested, async () => {
      await Promise.resolve();
      return fetch(new Request(url));
    }));
    assert.ok(nested.refusal);
    assert.equal(served, 0);
    assert.equal(await (await fetch(url)).text(), 'ok');
    assert.equal(served, 1);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a server that takes the request and never answers fails the delivery at its deadline; with private addresses allowed, only the deadline applies', async () => {
  const held: import('node:http').ServerResponse[] = [];
  const server = createServer((_req, res) => { held.push(res); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inbox`;
  try {
    const started = performance.now();
    const scope: RequestScope = { publicOnly: false, deadline: AbortSignal.timeout(300) };
    await assert.rejects(guardedRequests(scope, () => fetch(url, { method: 'POST', body: '{}' })), (err: Error) => err.name === 'TimeoutError');
    const waited = performance.now() - started;
    assert.ok(waited >= 290 && waited < 5_000, `failed after ${waited.toFixed(0)} ms`);
    assert.equal(held.length, 1, 'the request reached the server: private addresses allowed');
    assert.equal(scope.refusal, undefined);
  } finally {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an answer longer than the scope allows fails: at once by its Content-Length, or as it is read; a short one is read whole, its address kept', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024));
    if (req.url === '/streamed') {
      res.writeHead(200);
      for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 97));
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/activity+json' }).end('{"id":"short"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const scope = (): RequestScope => ({ publicOnly: false, deadline: AbortSignal.timeout(10_000), maxAnswerBytes: 1024 * 1024 });
  try {
    await assert.rejects(guardedRequests(scope(), () => fetch(`${base}/declared`)), /answered more than 1048576 bytes/);
    await assert.rejects(guardedRequests(scope(), async () => (await fetch(`${base}/streamed`)).text()), /answered more than 1048576 bytes/);
    const short = await guardedRequests(scope(), () => fetch(`${base}/short`));
    assert.equal(short.url, `${base}/short`);
    assert.deepEqual(await short.json(), { id: 'short' });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
