import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clipBio, compactCount, excerpt, isEdited, monthYear, mojoRounded, oneDecimal, relativeTime } from '../../client/format.ts';

test('excerpts cut at a word boundary with an ellipsis, never longer than asked', () => {
  assert.equal(excerpt('Short text', 200), 'Short text');
  assert.equal(excerpt('one two three four five six', 14), 'one two three…');
  assert.equal(excerpt('one two three four five six', 12), 'one two thre…', 'no early cut: keeps most of the text');
  assert.equal(excerpt('a\n\nb   c', 10), 'a b c');
  const long = 'word '.repeat(100);
  assert.ok(excerpt(long, 150).length <= 151);
  assert.equal(excerpt('x'.repeat(300), 150), `${'x'.repeat(150)}…`);
});

test('bios are clipped to 74 + ellipsis only when over 78', () => {
  assert.equal(clipBio('b'.repeat(78)), 'b'.repeat(78));
  assert.equal(clipBio('b'.repeat(79)), `${'b'.repeat(74)}...`);
});

test('counts above 999 use k', () => {
  assert.deepEqual([999, 1000, 1250, 9999, 15400, 120000].map(compactCount), ['999', '1k', '1.3k', '10k', '15k', '120k']);
});

test('mojo and ratings', () => {
  assert.equal(mojoRounded(12.6), '13');
  assert.equal(mojoRounded(-2.4), '-2');
  assert.equal(oneDecimal(4.25), '4.3');
  assert.equal(oneDecimal(3), '3.0');
});

test('relative times and dates', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  assert.equal(relativeTime('2026-11-21T11:59:50.000Z', now), 'just now');
  assert.equal(relativeTime('2026-11-21T09:00:00.000Z', now), '3 hours ago');
  assert.equal(relativeTime('2026-11-20T12:00:00.000Z', now), 'yesterday');
  assert.equal(relativeTime('2026-11-07T12:00:00.000Z', now), '2 weeks ago');
  assert.equal(relativeTime('2025-11-01T12:00:00.000Z', now), 'last year');
  assert.equal(monthYear('2026-03-15T12:00:00.000Z'), 'March 2026');
  assert.ok(isEdited({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:01.000Z' }));
  assert.ok(!isEdited({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }));
});
