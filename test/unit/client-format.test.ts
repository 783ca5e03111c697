import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clipBio, compactCount, excerpt, isEdited, monthYear, mojoRounded, oneDecimal, relativeTime, showingCount,
} from '../../client/format.ts';

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

test('relative times: one rule, whole units rounded down, at every boundary', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const S = 1000;
  const MIN = 60 * S;
  const H = 60 * MIN;
  const D = 24 * H;
  const table: Array<[number, string]> = [
    [0, 'just now'],
    [59 * S, 'just now'],
    [MIN, '1 minute ago'],
    [2 * MIN - 1, '1 minute ago'],
    [59 * MIN + 59 * S, '59 minutes ago'],
    [H, '1 hour ago'],
    [3 * H, '3 hours ago'],
    [23 * H + 59 * MIN, '23 hours ago'],
    [24 * H, '1 day ago'],
    [47 * H, '1 day ago'],
    [48 * H, '2 days ago'],
    [7 * D - 1, '6 days ago'],
    [7 * D, '1 week ago'],
    [14 * D, '2 weeks ago'],
    [29 * D, '4 weeks ago'],
    [30 * D, '1 month ago'],
    [364 * D, '12 months ago'],
    [365 * D, '1 year ago'],
    [3 * 365 * D, '3 years ago'],
  ];
  for (const [ago, text] of table) {
    assert.equal(relativeTime(new Date(now - ago).toISOString(), now), text, `${ago} ms ago`);
  }
  assert.equal(relativeTime(new Date(now + 30 * S).toISOString(), now), 'just now', 'a clock slightly ahead');
  assert.equal(relativeTime(new Date(now + 2 * H).toISOString(), now), 'in 2 hours');
  const shown = table.map(([ago]) => relativeTime(new Date(now - ago).toISOString(), now));
  assert.ok(!shown.some((t) => /yesterday|last|24 hours/.test(t)), 'never "yesterday" beside "24 hours ago"');
});

test('dates', () => {
  assert.equal(monthYear('2026-03-15T12:00:00.000Z'), 'March 2026');
  assert.ok(isEdited({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:01.000Z' }));
  assert.ok(!isEdited({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }));
});

test('a paged list says how many rows of how many', () => {
  assert.equal(showingCount(50, 73, 'author'), 'Showing 50 of 73 authors');
  assert.equal(showingCount(1, 1, 'author'), 'Showing 1 of 1 author');
  assert.equal(showingCount(0, 0, 'banned user'), 'Showing 0 of 0 banned users');
});
