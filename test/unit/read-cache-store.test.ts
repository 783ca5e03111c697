// server/cache/read-cache.ts as a keyed store (the rendered pages' use of it): what it keeps, for
// how long, and what it lets go. Its use by the lists, over HTTP, is test/api/read-cache.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createReadCache } from '../../server/cache/read-cache.ts';

const html = (bytes: number) => Buffer.alloc(bytes, 'x');

test('an answer computed across a write is sent but not kept', () => {
  const cache = createReadCache({ ttlMs: 60_000, maxEntries: 10, lists: {} });
  const mark = cache.mark();
  cache.invalidate();
  const entry = cache.store('page /', mark, html(10), 'text/html; charset=utf-8');
  assert.equal(entry.type, 'text/html; charset=utf-8');
  assert.match(entry.etag, /^W\/"a-/);
  assert.equal(cache.lookup('page /'), undefined);
  cache.store('page /', cache.mark(), html(10), 'text/html; charset=utf-8', { id: 7 });
  assert.deepEqual(cache.lookup('page /')?.memo, { id: 7 });
  cache.invalidate();
  assert.equal(cache.lookup('page /'), undefined, 'a write makes it stale');
});

test('the oldest entries go once the bodies pass the byte bound', () => {
  const cache = createReadCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 100, lists: {} });
  for (const key of ['a', 'b', 'c']) cache.store(key, cache.mark(), html(40), 'text/html');
  assert.equal(cache.lookup('a'), undefined);
  assert.ok(cache.lookup('b') && cache.lookup('c'));
  // Replacing an entry frees its old body: 10 + 40 + 40 fit.
  cache.store('b', cache.mark(), html(10), 'text/html');
  cache.store('d', cache.mark(), html(40), 'text/html');
  assert.equal(cache.size, 3);
  assert.ok(cache.lookup('b') && cache.lookup('c') && cache.lookup('d'));
});

test('a forgotten address goes stale alone, and an answer computed across its forgetting is not kept', () => {
  const cache = createReadCache({ ttlMs: 60_000, maxEntries: 10, lists: {} });
  for (const key of ['article 1', 'article 2']) cache.store(key, cache.mark(), html(10), 'application/json');
  const mark = cache.mark();
  cache.forget(['article 1']);
  assert.equal(cache.lookup('article 1'), undefined);
  assert.ok(cache.lookup('article 2'), 'the others stay');
  cache.store('article 1', mark, html(10), 'application/json');
  assert.equal(cache.lookup('article 1'), undefined, 'read before it was forgotten');
  cache.store('article 1', cache.mark(), html(10), 'application/json');
  assert.ok(cache.lookup('article 1'), 'read after');
  cache.invalidate();
  cache.store('article 2', cache.mark(), html(10), 'application/json');
  assert.ok(cache.lookup('article 2'), 'an invalidation clears what was forgotten, and what is read after it is kept');
});
