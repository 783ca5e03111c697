// The list cache's misses: readers who miss while the list is being read wait for that one read,
// unless a write came in between.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import express from 'express';
import { createReadCache } from '../../server/cache/read-cache.ts';

const cache = createReadCache({ ttlMs: 60_000, maxEntries: 10, lists: { '/list': [], '/broken': [] } });
let reads = 0;
/** Each read of the list waits here until the test lets it answer. */
let release: Array<() => void> = [];
const released = () => new Promise<void>((resolve) => release.push(resolve));

const app = express();
app.use(cache.middleware);
app.get('/list', async (_req, res) => {
  reads += 1;
  const read = reads;
  await released();
  res.json({ read });
});
app.get('/broken', async (_req, res) => {
  reads += 1;
  await released();
  res.status(503).json({ detail: 'down' });
});
const server = app.listen(0);
let base = '';
before(() => { base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`; });
after(() => server.close());

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

function answerAll() {
  const waiting = release;
  release = [];
  for (const resolve of waiting) resolve();
}

test('readers missing the same list together are answered by one read', { timeout: 5_000 }, async () => {
  cache.invalidate();
  reads = 0;
  const answers = Array.from({ length: 5 }, () => fetch(`${base}/list`).then((res) => res.json()));
  await until(() => release.length === 1);
  // Give the other four every chance to start a read of their own.
  await new Promise((resolve) => setTimeout(resolve, 50));
  answerAll();
  assert.deepEqual(await Promise.all(answers), Array(5).fill({ read: 1 }));
  assert.equal(reads, 1);
  assert.deepEqual(await (await fetch(`${base}/list`)).json(), { read: 1 }, 'stored for later readers');
});

test('a reader who misses after a write reads again, and the read overlapping the write is not kept', { timeout: 5_000 }, async () => {
  cache.invalidate();
  reads = 0;
  const first = fetch(`${base}/list`).then((res) => res.json());
  await until(() => release.length === 1);
  cache.invalidate(); // a write starts
  const second = fetch(`${base}/list`).then((res) => res.json());
  await until(() => release.length === 2);
  answerAll();
  assert.deepEqual(await first, { read: 1 });
  assert.deepEqual(await second, { read: 2 });
  assert.deepEqual(await (await fetch(`${base}/list`)).json(), { read: 2 }, 'the read after the write is stored');
  assert.equal(reads, 2);
});

test('when the read they waited for fails, waiters read for themselves', { timeout: 5_000 }, async () => {
  cache.invalidate();
  reads = 0;
  const answers = Array.from({ length: 3 }, () => fetch(`${base}/broken`).then((res) => res.status));
  await until(() => release.length === 1);
  answerAll();
  // The two waiters now read for themselves, together.
  await until(() => release.length === 2);
  answerAll();
  assert.deepEqual(await Promise.all(answers), [503, 503, 503]);
  assert.equal(reads, 3);
});

test('an entry only its age made stale answers at once while one read renews it', { timeout: 5_000 }, async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  cache.invalidate();
  reads = 0;
  const first = fetch(`${base}/list`).then((res) => res.json());
  await until(() => release.length === 1);
  answerAll();
  assert.deepEqual(await first, { read: 1 });
  t.mock.timers.tick(60_001); // past the time to live, with no write
  const renewing = fetch(`${base}/list`).then((res) => res.json());
  await until(() => release.length === 1);
  // Readers meanwhile (the search row's fifty connections) are answered at once, not made to wait.
  assert.deepEqual(await (await fetch(`${base}/list`)).json(), { read: 1 });
  answerAll();
  assert.deepEqual(await renewing, { read: 2 });
  assert.deepEqual(await (await fetch(`${base}/list`)).json(), { read: 2 }, 'the renewed answer is stored');
  assert.equal(reads, 2);
});
