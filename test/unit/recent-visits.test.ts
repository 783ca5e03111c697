// The memory of visits counted lately (server/posts/posts.recent-visits.ts): what it answers
// within and after the window, the oldest forgotten first when full, and a removed reader's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRecentVisits } from '../../server/posts/posts.recent-visits.ts';

test('a visit is known as counted from its time on, and not before', () => {
  const recent = createRecentVisits(10);
  recent.remember(7, 'a:reader', 1_000);
  assert.equal(recent.countedSince(7, 'a:reader', 1_000), true);
  assert.equal(recent.countedSince(7, 'a:reader', 1_001), false, 'the window has moved past it');
  assert.equal(recent.countedSince(8, 'a:reader', 0), false, 'another article');
  assert.equal(recent.countedSince(7, 'a:other', 0), false, 'another reader');
});

test('when full, the visit remembered longest ago goes first', () => {
  const recent = createRecentVisits(2);
  recent.remember(1, 'u:1', 10);
  recent.remember(2, 'u:1', 20);
  recent.remember(1, 'u:1', 30); // counted again: now the newest
  recent.remember(3, 'u:1', 40);
  assert.equal(recent.countedSince(2, 'u:1', 0), false);
  assert.equal(recent.countedSince(1, 'u:1', 0), true);
  assert.equal(recent.countedSince(3, 'u:1', 0), true);
});

test("a removed reader's visits are forgotten, and only theirs", () => {
  const recent = createRecentVisits(10);
  recent.remember(1, 'u:1', 10);
  recent.remember(2, 'u:1', 10);
  recent.remember(1, 'u:11', 10);
  recent.forgetVisitor('u:1');
  assert.equal(recent.countedSince(1, 'u:1', 0), false);
  assert.equal(recent.countedSince(2, 'u:1', 0), false);
  assert.equal(recent.countedSince(1, 'u:11', 0), true);
});
