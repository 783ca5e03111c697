// The rules the server and the client both apply (shared/): excerpts, plurals, human dates and
// the ban sentence, which the server writes and the client reads back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { banMessage, readBanMessage } from '../../shared/bans.ts';
import { humanDate, humanDateTime, parseUtcDateTime, utcDateTime } from '../../shared/dates.ts';
import { excerpt } from '../../shared/excerpt.ts';
import { plural, pluralNoun } from '../../shared/plural.ts';

describe('excerpt', () => {
  it('cuts at a word boundary with one ellipsis, never longer than asked', () => {
    assert.equal(excerpt('Short text', 200), 'Short text');
    assert.equal(excerpt('one two three four five six', 14), 'one two three…');
    assert.equal(excerpt('x'.repeat(300), 150), `${'x'.repeat(150)}…`);
    assert.ok(excerpt('word '.repeat(100), 150).length <= 151);
  });

  it('never doubles the ellipsis when the cut lands on the writer\'s own', () => {
    const table: Array<[string, number, string]> = [
      ['Wait for it... and then the gulls came in', 15, 'Wait for it…'],
      ['Wait for it… and then the gulls came in', 13, 'Wait for it…'],
      ['The end of the line. Another sentence here', 21, 'The end of the line…'],
      ['Commas, dashes — and more words to follow', 16, 'Commas, dashes…'],
      ['.......... and on and on', 10, '…'],
    ];
    for (const [text, length, expected] of table) {
      const cut = excerpt(text, length);
      assert.equal(cut, expected, text);
      assert.ok(!/(\.\.\.|…)…$/.test(cut) && !cut.endsWith('.…'), cut);
    }
  });
});

describe('plural', () => {
  it('one rule: 1 takes the singular, anything else the plural', () => {
    const table: Array<[number, string, string | undefined, string]> = [
      [0, 'article', undefined, '0 articles'],
      [1, 'article', undefined, '1 article'],
      [2, 'article', undefined, '2 articles'],
      [1, 'person', 'people', '1 person'],
      [21, 'person', 'people', '21 people'],
      [1, 'unread notification', undefined, '1 unread notification'],
    ];
    for (const [n, word, pluralForm, expected] of table) assert.equal(plural(n, word, pluralForm), expected);
    assert.equal(pluralNoun(1, 'visit'), 'visit');
    assert.equal(pluralNoun(1250, 'visit'), 'visits');
  });
});

describe('human dates', () => {
  const at = '2026-12-12T10:00:00.000Z';

  it('day, month in words, year, 24-hour time; in the zone asked for', () => {
    assert.equal(humanDateTime(at, 'UTC'), '12 December 2026, 10:00');
    assert.equal(humanDateTime(at, 'America/New_York'), '12 December 2026, 05:00');
    assert.equal(humanDateTime('2026-12-31T23:30:00.000Z', 'Asia/Tokyo'), '1 January 2027, 08:30');
    assert.equal(humanDateTime('2026-03-05T00:07:00.000Z', 'UTC'), '5 March 2026, 00:07');
    assert.equal(humanDate(at, 'UTC'), '12 December 2026');
  });

  it('server text says UTC and reads back to the same minute', () => {
    assert.equal(utcDateTime(new Date(at)), '12 December 2026, 10:00 UTC');
    assert.equal(parseUtcDateTime('12 December 2026, 10:00 UTC')?.toISOString(), at);
    for (const bad of ['2026-12-12T10:00:00.000Z', '12 Decembre 2026, 10:00 UTC', '12 December 2026, 10:00', '']) {
      assert.equal(parseUtcDateTime(bad), undefined, bad);
    }
  });
});

describe('the ban sentence', () => {
  it('temporary: a human end date in UTC and the reason', () => {
    const message = banMessage({ permanent: false, until: '2026-12-12T10:00:42.123Z', reason: 'Spam in the comments' });
    assert.equal(message, 'Your account is banned until 12 December 2026, 10:00 UTC. Reason: Spam in the comments');
    assert.doesNotMatch(message, /\d{4}-\d\d-\d\dT/, 'no ISO date reaches the reader');
    assert.deepEqual(readBanMessage(message), { permanent: false, until: '2026-12-12T10:00:00.000Z', reason: 'Spam in the comments' });
  });

  it('permanent, with and without a reason; reasons may contain anything', () => {
    assert.equal(banMessage({ permanent: true, until: null, reason: 'spam' }), 'Your account has been permanently banned. Reason: spam');
    assert.deepEqual(readBanMessage('Your account has been permanently banned.'), { permanent: true, until: null, reason: '' });
    const odd = 'Said "Reason: none". Twice. Reason: again';
    assert.deepEqual(readBanMessage(banMessage({ permanent: true, until: null, reason: odd })), { permanent: true, until: null, reason: odd });
  });

  it('anything else is not a ban', () => {
    for (const detail of ['Admin privileges required', 'You cannot rate your own articles', 'Your account is banned until soon.', '']) {
      assert.equal(readBanMessage(detail), undefined, detail);
    }
  });
});
