// Fedify's key–value store on Beatnik's own database (federation/kv-store.ts), on either
// database: values kept as JSON, expiry read as absence, and compare-and-swap as Fedify's circuit
// breaker uses it (a server's state set, moved on, and cleared with a new value of undefined),
// one winner when two swap at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Temporal } from '@js-temporal/polyfill';
import { DatabaseKvStore } from '../../server/federation/kv-store.ts';
import { startTestServer, type TestServer } from '../helpers.ts';

let server: TestServer;
let kv: DatabaseKvStore;
before(async () => {
  server = await startTestServer();
  kv = new DatabaseKvStore(server.ctx.db);
});
after(async () => { await server.stop(); });

test('keeps a JSON value under its key until deleted, and an expired one reads as absent', async () => {
  await kv.set(['kv', 'plain'], { n: 1, list: ['a'] });
  assert.deepEqual(await kv.get(['kv', 'plain']), { n: 1, list: ['a'] });
  await kv.delete(['kv', 'plain']);
  assert.equal(await kv.get(['kv', 'plain']), undefined);
  await kv.set(['kv', 'brief'], 'soon gone', { ttl: Temporal.Duration.from({ milliseconds: 1 }) as unknown as globalThis.Temporal.Duration });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(await kv.get(['kv', 'brief']), undefined);
});

test('compare-and-swap: sets only over the value expected, and a new value of undefined removes the key', async () => {
  const key = ['kv', 'circuit', 'far.example'] as const;
  assert.equal(await kv.cas(key, undefined, { state: 'open' }), true, 'absent: set');
  assert.equal(await kv.cas(key, undefined, { state: 'open' }), false, 'no longer absent');
  assert.equal(await kv.cas(key, { state: 'closed' }, { state: 'half-open' }), false, 'not the value held');
  assert.deepEqual(await kv.get(key), { state: 'open' });
  assert.equal(await kv.cas(key, { state: 'open' }, { state: 'half-open' }), true);
  // What Fedify's circuit breaker does when a paused server answers again.
  assert.equal(await kv.cas(key, { state: 'half-open' }, undefined), true);
  assert.equal(await kv.get(key), undefined);
  assert.equal(await kv.cas(key, { state: 'half-open' }, undefined), false, 'nothing left to clear');
  assert.equal(await kv.cas(key, undefined, undefined), true, 'absent, as expected');
});

test('compare-and-swap takes an expired entry for absent', async () => {
  const key = ['kv', 'expired'] as const;
  await kv.set(key, 'old', { ttl: Temporal.Duration.from({ milliseconds: 1 }) as unknown as globalThis.Temporal.Duration });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(await kv.cas(key, 'old', 'newer'), false, 'the expired value is not held');
  assert.equal(await kv.cas(key, undefined, 'new'), true);
  assert.equal(await kv.get(key), 'new');
});

test('of ten swaps over the same value at once, one wins', async () => {
  const key = ['kv', 'race'] as const;
  await kv.set(key, 0);
  const won = await Promise.all(Array.from({ length: 10 }, (_, n) => kv.cas(key, 0, n + 1)));
  assert.equal(won.filter(Boolean).length, 1);
  assert.equal(await kv.get(key), won.indexOf(true) + 1);
});
