// The client's own display rules; the ones it shares with the server (excerpts, plurals, dates) are
// tested in shared-rules.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clipBio, compactCount, isEdited, monthYear, mojoRounded, oneDecimal, showingCount } from '../../client/format.ts';

test('bios are clipped to 74 + ellipsis only when over 78', () => {
  assert.equal(clipBio('b'.repeat(78)), 'b'.repeat(78));
  assert.equal(clipBio('b'.repeat(79)), `${'b'.repeat(74)}…`);
  assert.equal(clipBio(`${'b'.repeat(71)}... and more words`), `${'b'.repeat(71)}…`, 'one ellipsis, not "...…"');
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

test('dates', () => {
  assert.equal(monthYear('2026-03-15T12:00:00.000Z'), 'March 2026');
  assert.equal(monthYear('2026-12-31T20:00:00.000Z', 'UTC'), 'December 2026');
  assert.equal(monthYear('2026-12-31T20:00:00.000Z', 'Asia/Tokyo'), 'January 2027');
  assert.ok(isEdited({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:01.000Z' }));
  assert.ok(!isEdited({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }));
});

test('a paged list says how many rows of how many', () => {
  assert.equal(showingCount(50, 73, 'author'), 'Showing 50 of 73 authors');
  assert.equal(showingCount(1, 1, 'author'), 'Showing 1 of 1 author');
  assert.equal(showingCount(0, 0, 'banned user'), 'Showing 0 of 0 banned users');
});
