// The rules the server and the client both apply (shared/): excerpts, plurals, human and relative
// dates (on an injected clock) and the ban sentence, which the server writes and the client reads back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { banMessage, readBanMessage } from '../../shared/bans.ts';
import { dateFormat, humanDate, humanDateTime, parseUtcDateTime, relativeTime, utcDateTime } from '../../shared/dates.ts';
import { ELLIPSIS, clipped, excerpt } from '../../shared/excerpt.ts';
import { plural, pluralNoun } from '../../shared/plural.ts';

describe('excerpt', () => {
  it('cuts at a word boundary with one ellipsis, never longer than asked', () => {
    assert.equal(excerpt('Short text', 200), 'Short text');
    assert.equal(excerpt('one two three four five six', 14), 'one two three…');
    assert.equal(excerpt('one two three four five six', 12), 'one two thre…', 'no early cut: a word boundary would lose over 40 %');
    assert.equal(excerpt('a\n\nb   c', 10), 'a b c', 'white space runs fold to one space');
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

  /** Words, spaces, line breaks and the punctuation a cut may land on. */
  const prose = fc.array(fc.constantFrom('a', 'bb', 'word', 'longerword', ' ', '  ', '\n', '\t', '.', '...', '…', ',', ';', '-', '—'),
    { maxLength: 80 }).map((parts) => parts.join(''));

  it('any text: unchanged when it fits, else a prefix of it plus exactly one ellipsis, at most one character over', () => {
    fc.assert(fc.property(prose, fc.integer({ min: 1, max: 120 }), (text, length) => {
      const flat = text.replace(/\s+/g, ' ').trim();
      const cut = excerpt(text, length);
      if (flat.length <= length) {
        assert.equal(cut, flat);
        return;
      }
      assert.ok(cut.length <= length + 1, `${cut.length} > ${length} + 1`);
      assert.ok(cut.endsWith(ELLIPSIS), cut);
      assert.ok(flat.startsWith(cut.slice(0, -1)), `${JSON.stringify(cut)} is not a prefix of the text`);
      assert.doesNotMatch(cut, /[\s.…,;:\-–—]…$/u, 'nothing a cut drops stands before the ellipsis');
    }), { numRuns: 3_000 });
  });

  it('with no word boundary within the length, one long word is cut where the length ends', () => {
    fc.assert(fc.property(prose, fc.integer({ min: 1, max: 120 }), (text, length) => {
      const flat = text.replace(/\s+/g, ' ').trim();
      fc.pre(flat.length > length && !/[\s.…,;:\-–—]/u.test(flat.slice(0, length)));
      assert.equal(excerpt(text, length), `${flat.slice(0, length)}…`);
    }), { numRuns: 500 });
  });

  it('with a word boundary past 60 % of the length, no word is cut in half', () => {
    fc.assert(fc.property(prose, fc.integer({ min: 1, max: 120 }), (text, length) => {
      const flat = text.replace(/\s+/g, ' ').trim();
      const space = flat.slice(0, length).lastIndexOf(' ');
      fc.pre(flat.length > length && space > length * 0.6);
      const kept = excerpt(text, length).slice(0, -1);
      assert.match(flat.slice(kept.length, space + 1), /^[\s.…,;:\-–—]+$/u, `kept ${JSON.stringify(kept)} of ${JSON.stringify(flat)}`);
    }), { numRuns: 1_000 });
  });

  it('clipped: one ellipsis after whatever the text ended on', () => {
    const table: Array<[string, string]> = [
      ['word', 'word…'], ['word...', 'word…'], ['word…', 'word…'], ['word, ', 'word…'], ['word —', 'word…'], ['', '…'],
    ];
    for (const [text, expected] of table) assert.equal(clipped(text), expected, text);
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

  it('every count but exactly 1 takes the plural: 0, negatives, fractions', () => {
    fc.assert(fc.property(fc.double({ noNaN: true }).filter((n) => n !== 1), (n) => {
      assert.equal(pluralNoun(n, 'day'), 'days');
      assert.equal(plural(n, 'person', 'people'), `${n} people`);
    }));
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

  it('a formatter is made once per locale, options and zone, and each formats as asked', () => {
    const utc = dateFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    assert.equal(dateFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }), utc);
    const tokyo = dateFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'Asia/Tokyo' });
    assert.notEqual(tokyo, utc);
    assert.notEqual(dateFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }), utc);
    const newYearsEve = new Date('2026-12-31T20:00:00Z');
    assert.equal(utc.format(newYearsEve), 'December 2026');
    assert.equal(tokyo.format(newYearsEve), 'January 2027');
  });

  const instant = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true });

  it('any instant: the UTC text reads back to that instant, to the minute', () => {
    fc.assert(fc.property(instant, (when) => {
      const minute = new Date(Math.floor(when.getTime() / 60_000) * 60_000);
      assert.equal(parseUtcDateTime(utcDateTime(when))?.toISOString(), minute.toISOString());
    }), { numRuns: 1_000 });
  });

  it('any instant and zone: the date is the date-and-time without its time', () => {
    const zone = fc.constantFrom('UTC', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata');
    fc.assert(fc.property(instant, zone, (when, timeZone) => {
      const full = humanDateTime(when, timeZone);
      assert.match(full, /^\d{1,2} [A-Z][a-z]+ \d{4}, ([01]\d|2[0-3]):[0-5]\d$/);
      assert.equal(`${humanDate(when, timeZone)}, ${full.split(', ')[1]}`, full);
    }), { numRuns: 500 });
  });
});

describe('relative dates (the clock is passed in)', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const S = 1000;
  const MIN = 60 * S;
  const H = 60 * MIN;
  const D = 24 * H;
  const ago = (ms: number) => relativeTime(new Date(now - ms).toISOString(), now);

  it('one rule, whole units rounded down, at every boundary', () => {
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
    for (const [ms, text] of table) assert.equal(ago(ms), text, `${ms} ms ago`);
    assert.equal(ago(-30 * S), 'just now', 'a clock slightly ahead');
    assert.equal(ago(-2 * H), 'in 2 hours');
    const shown = table.map(([ms]) => ago(ms));
    assert.ok(!shown.some((t) => /yesterday|last|24 hours/.test(t)), 'never "yesterday" beside "24 hours ago"');
  });

  /** Where a text stands in time: its unit, then its count ('just now' first). */
  const UNIT_ORDER = ['minute', 'hour', 'day', 'week', 'month', 'year'];
  function rank(text: string): [number, number] {
    if (text === 'just now') return [-1, 0];
    const match = /^(?:in )?(\d+) (minute|hour|day|week|month|year)s?(?: ago)?$/.exec(text);
    assert.ok(match, `unexpected text ${JSON.stringify(text)}`);
    return [UNIT_ORDER.indexOf(match[2]!), Number(match[1])];
  }
  const span = fc.integer({ min: 0, max: 20 * 365 * D });

  it('an older time never reads as more recent', () => {
    fc.assert(fc.property(span, span, (a, b) => {
      const [younger, older] = a <= b ? [a, b] : [b, a];
      const [ru, rn] = rank(ago(younger));
      const [ou, on] = rank(ago(older));
      assert.ok(ou > ru || (ou === ru && on >= rn), `${ago(older)} (${older} ms) before ${ago(younger)} (${younger} ms)`);
    }), { numRuns: 2_000 });
  });

  it('the count is the whole number of the largest unit reached, in the past and the future alike', () => {
    const UNIT_MS: Record<string, number> = { minute: MIN, hour: H, day: D, week: 7 * D, month: 30 * D, year: 365 * D };
    fc.assert(fc.property(span, (ms) => {
      const past = ago(ms);
      const future = ago(-ms);
      if (ms < MIN) {
        assert.deepEqual([past, future], ['just now', 'just now']);
        return;
      }
      const [unit, count] = rank(past);
      const size = UNIT_MS[UNIT_ORDER[unit]!]!;
      assert.equal(count, Math.floor(ms / size), past);
      const next = UNIT_ORDER[unit + 1];
      if (next) assert.ok(ms < UNIT_MS[next]!, `${past}: ${ms} ms has reached a ${next}`);
      assert.equal(future, `in ${past.replace(/ ago$/, '')}`);
    }), { numRuns: 2_000 });
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
