// Request input turned into typed values or a 400 (or a 404 for ids), without a server: the
// article form (posts.input.ts), the admin bodies (admin.input.ts), the profile edit
// (users.input.ts), the rating, and the query and body readers of http.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request } from 'express';
import fc from 'fast-check';
import { parseBan, parseLevelChange, parseNotification, userIdOf } from '../../server/admin/admin.input.ts';
import { HttpError } from '../../server/errors.ts';
import { bodyOf, choiceOf, flagOf, idOf, lineText, multilineText, pageOf, queryText, rawText, type Body } from '../../server/http.ts';
import { parseHashtags, parsePostInput, sinceOf } from '../../server/posts/posts.input.ts';
import { parseRating } from '../../server/ratings/ratings.service.ts';
import { parseProfileInput } from '../../server/users/users.input.ts';
import {
  CONTENT_MESSAGE, HASHTAG_CHARACTERS_MESSAGE, HASHTAG_COUNT_MESSAGE, HASHTAG_LENGTH_MESSAGE, TITLE_MESSAGE, hashtagProblem,
  normalizeHashtag,
} from '../../shared/articles.ts';
import { BIO_LENGTH_MESSAGE, USERNAME_CHARACTERS_MESSAGE, USERNAME_LENGTH_MESSAGE } from '../../shared/accounts.ts';

/** The value, or the status and detail of the HttpError it threw. */
function outcome<T>(parse: () => T): { value: T } | { status: number; detail: string } {
  try {
    return { value: parse() };
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, detail: err.detail };
    throw err;
  }
}

const refused = (detail: string, status = 400) => ({ status, detail });

const TITLE = 'A headline long enough to print';
const CONTENT = 'c'.repeat(150);

describe('the article form (posts.input.ts)', () => {
  it('title, content and hashtags, cleaned as stored', () => {
    assert.deepEqual(
      parsePostInput({ title: `  ${TITLE}\r\n`, content: ` ${CONTENT}\r\nmore\u200B `, hashtags: ['#Jazz', ' poetry '] }),
      { title: TITLE, content: `${CONTENT}\nmore`, hashtags: ['jazz', 'poetry'] },
    );
  });

  it('the first problem in form order is the one answered', () => {
    const table: Array<[string, Body, string]> = [
      ['no fields at all', {}, TITLE_MESSAGE],
      ['a title that is not text', { title: 42, content: CONTENT, hashtags: ['a'] }, TITLE_MESSAGE],
      ['a short title before a short content', { title: 'short', content: 'short', hashtags: [] }, TITLE_MESSAGE],
      ['a short content before missing hashtags', { title: TITLE, content: 'short' }, CONTENT_MESSAGE],
      ['content that is a list', { title: TITLE, content: [CONTENT], hashtags: ['a'] }, CONTENT_MESSAGE],
      ['missing hashtags', { title: TITLE, content: CONTENT }, HASHTAG_COUNT_MESSAGE],
    ];
    for (const [name, body, detail] of table) assert.deepEqual(outcome(() => parsePostInput(body)), refused(detail), name);
  });

  it('hashtags: a JSON array or its text; empty entries and duplicates ignored; 1 to 3 remain', () => {
    const table: Array<[string, unknown, string[] | string]> = [
      ['an array', ['Blues'], ['blues']],
      ['JSON text', '["#Jazz", "jazz", " poetry ", "", "#"]', ['jazz', 'poetry']],
      ['duplicates after cleaning', ['A', 'a', '#A', 'b'], ['a', 'b']],
      ['three', ['a', 'b', 'c'], ['a', 'b', 'c']],
      ['four', ['a', 'b', 'c', 'd'], HASHTAG_COUNT_MESSAGE],
      ['four distinct of five', ['A', 'a', 'B', 'c', 'D'], HASHTAG_COUNT_MESSAGE],
      ['none', [], HASHTAG_COUNT_MESSAGE],
      ['only empty ones', ['', ' ', '#'], HASHTAG_COUNT_MESSAGE],
      ['text that is not JSON', 'jazz,blues', HASHTAG_COUNT_MESSAGE],
      ['a JSON object', '{"a":1}', HASHTAG_COUNT_MESSAGE],
      ['a JSON string', '"jazz"', HASHTAG_COUNT_MESSAGE],
      ['a number in the list', ['jazz', 7], HASHTAG_COUNT_MESSAGE],
      ['a number', 7, HASHTAG_COUNT_MESSAGE],
      ['absent', undefined, HASHTAG_COUNT_MESSAGE],
      ['a long tag', ['x'.repeat(21)], HASHTAG_LENGTH_MESSAGE],
      ['a tag with a space', ['free jazz'], HASHTAG_CHARACTERS_MESSAGE],
      ['a bad tag after three good ones', ['a', 'b', 'c', 'd e'], HASHTAG_CHARACTERS_MESSAGE],
    ];
    for (const [name, value, expected] of table) {
      const result = outcome(() => parseHashtags(value));
      assert.deepEqual(result, typeof expected === 'string' ? refused(expected) : { value: expected }, name);
    }
  });

  const typedTag = fc.array(fc.constantFrom('#', ' ', 'a', 'B', 'c', 'é', '-', '_', '1', '!', '\u200B'), { maxLength: 8 })
    .map((parts) => parts.join(''));

  it('any list: the JSON text of it reads the same, and what is accepted is 1 to 3 distinct clean tags in order', () => {
    fc.assert(fc.property(fc.array(typedTag, { maxLength: 6 }), (typed) => {
      const fromArray = outcome(() => parseHashtags(typed));
      assert.deepEqual(outcome(() => parseHashtags(JSON.stringify(typed))), fromArray);
      if (!('value' in fromArray)) return;
      const tags = fromArray.value;
      assert.ok(tags.length >= 1 && tags.length <= 3, JSON.stringify(tags));
      assert.equal(new Set(tags).size, tags.length);
      for (const tag of tags) assert.equal(hashtagProblem(tag), undefined, tag);
      const firstSeen = [...new Set(typed.map(normalizeHashtag).filter((t) => t !== ''))];
      assert.deepEqual(tags, firstSeen);
    }), { numRuns: 2_000 });
  });

  it('time periods count back from the clock passed in', () => {
    const now = Date.parse('2026-06-15T12:00:00.000Z');
    assert.equal(sinceOf('', now), undefined);
    assert.equal(sinceOf('24h', now), '2026-06-14T12:00:00.000Z');
    assert.equal(sinceOf('7d', now), '2026-06-08T12:00:00.000Z');
    assert.equal(sinceOf('30d', now), '2026-05-16T12:00:00.000Z');
  });
});

describe('the rating (ratings.service.ts parseRating)', () => {
  const MESSAGE = 'Rating must be a whole number from 1 to 5';

  it('a whole number from 1 to 5, as a number or a digit in text', () => {
    const table: Array<[unknown, number | undefined]> = [
      [1, 1], [5, 5], ['3', 3], [' 4 ', 4], [0, undefined], [6, undefined], [3.5, undefined], ['3.0', undefined],
      ['five', undefined], ['', undefined], [null, undefined], [undefined, undefined], [[4], undefined], [true, undefined],
      [Number.NaN, undefined], [Number.POSITIVE_INFINITY, undefined], ['05', undefined], ['1e0', undefined],
    ];
    for (const [value, rating] of table) {
      assert.deepEqual(outcome(() => parseRating(value)), rating === undefined ? refused(MESSAGE) : { value: rating }, JSON.stringify(value));
    }
  });

  it('anything at all: a rating from 1 to 5, or the 400', () => {
    fc.assert(fc.property(fc.anything(), (value) => {
      const result = outcome(() => parseRating(value));
      if ('value' in result) assert.ok([1, 2, 3, 4, 5].includes(result.value) && String(value).trim() === String(result.value));
      else assert.deepEqual(result, refused(MESSAGE));
    }), { numRuns: 2_000 });
  });
});

describe('the admin bodies (admin.input.ts)', () => {
  const USER_ID = 'user_id must be a positive integer';

  it('user_id: a positive whole number, or its digits as text', () => {
    const table: Array<[unknown, number | undefined]> = [
      [1, 1], [42, 42], ['7', 7], [' 7 ', 7], ['999999999999999', 999_999_999_999_999], [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      [0, undefined], [-1, undefined], [1.5, undefined], ['1.5', undefined], ['abc', undefined], ['', undefined], ['-3', undefined],
      ['9999999999999999', undefined], [2 ** 53, undefined], [null, undefined], [undefined, undefined], [true, undefined], [[1], undefined],
    ];
    for (const [value, id] of table) {
      assert.deepEqual(outcome(() => userIdOf({ user_id: value })), id === undefined ? refused(USER_ID) : { value: id }, JSON.stringify(value));
    }
  });

  it('level changes name a user and one of two levels', () => {
    assert.deepEqual(parseLevelChange({ user_id: 3, level: 'admin' }), { userId: 3, level: 'admin' });
    assert.deepEqual(parseLevelChange({ user_id: '3', level: ' user ' }), { userId: 3, level: 'user' });
    for (const level of ['Admin', 'root', '', 1, undefined]) {
      assert.deepEqual(outcome(() => parseLevelChange({ user_id: 3, level })), refused("Level must be 'user' or 'admin'"), String(level));
    }
    assert.deepEqual(outcome(() => parseLevelChange({ level: 'admin' })), refused(USER_ID), 'the user is checked first');
  });

  it('bans: temporary by default, permanent without an end; the reason cleaned', () => {
    const until = '2026-07-01T10:00:00.000Z';
    const table: Array<[string, Body, unknown]> = [
      ['temporary', { user_id: 1, ban_type: 'temporary', ban_reason: ' spam\r\n', ban_until: until },
        { value: { userId: 1, permanent: false, until: new Date(until), reason: 'spam' } }],
      ['no type is temporary', { user_id: 1, ban_reason: 'x', ban_until: until }, { value: { userId: 1, permanent: false, until: new Date(until), reason: 'x' } }],
      ['an empty type is temporary', { user_id: 1, ban_type: '', ban_reason: 'x', ban_until: until },
        { value: { userId: 1, permanent: false, until: new Date(until), reason: 'x' } }],
      ['permanent ignores the end', { user_id: 1, ban_type: 'permanent', ban_reason: 'x', ban_until: 'nonsense' },
        { value: { userId: 1, permanent: true, until: null, reason: 'x' } }],
      ['no end is left to the service', { user_id: 1, ban_reason: 'x' }, { value: { userId: 1, permanent: false, until: null, reason: 'x' } }],
      ['an end that is not text is no end', { user_id: 1, ban_reason: 'x', ban_until: 12345 }, { value: { userId: 1, permanent: false, until: null, reason: 'x' } }],
      ['no reason reads as empty', { user_id: 1, ban_type: 'permanent' }, { value: { userId: 1, permanent: true, until: null, reason: '' } }],
      ['an unknown type', { user_id: 1, ban_type: 'forever', ban_reason: 'x' }, refused("ban_type must be 'temporary' or 'permanent'")],
      ['a bad user id first', { user_id: 'x', ban_type: 'forever' }, refused(USER_ID)],
    ];
    for (const [name, body, expected] of table) assert.deepEqual(outcome(() => parseBan(body)), expected, name);
  });

  it('ban ends: ISO 8601 dates and times of days that exist', () => {
    const accepted: Array<[string, string]> = [
      ['2026-07-01', '2026-07-01T00:00:00.000Z'],
      ['2026-07-01T10:00Z', '2026-07-01T10:00:00.000Z'],
      ['2026-07-01T10:00:30+02:00', '2026-07-01T08:00:30.000Z'],
      ['2026-07-01T10:00:30.5-0130', '2026-07-01T11:30:30.500Z'],
      ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ];
    for (const [text, iso] of accepted) assert.equal(parseBan({ user_id: 1, ban_until: text }).until?.toISOString(), iso, text);
    for (const text of ['next tuesday', '2026-02-29', '2026-02-31T00:00:00Z', '2026-13-01', '2026-04-31', '2026-00-10',
      '2026-07-01T25:00:00Z', '1 July 2026', '2026/07/01', '20260701', '2026-07-01T10:00:00 UTC']) {
      assert.deepEqual(outcome(() => parseBan({ user_id: 1, ban_until: text })), refused('ban_until must be a valid ISO 8601 date'), text);
    }
  });

  it('any instant, written as toISOString writes it, reads back as that instant', () => {
    const instant = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(fc.property(instant, (when) => {
      assert.equal(parseBan({ user_id: 1, ban_until: when.toISOString() }).until?.getTime(), when.getTime());
    }), { numRuns: 1_000 });
  });

  it('any day past the end of its month is refused, whatever the year', () => {
    const pastTheEnd = fc.record({ year: fc.integer({ min: 1970, max: 2400 }), month: fc.integer({ min: 1, max: 12 }), extra: fc.integer({ min: 1, max: 3 }) })
      .map(({ year, month, extra }) => ({ year, month, day: new Date(Date.UTC(year, month, 0)).getUTCDate() + extra }))
      .filter(({ day }) => day <= 31);
    fc.assert(fc.property(pastTheEnd, ({ year, month, day }) => {
      const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      assert.deepEqual(outcome(() => parseBan({ user_id: 1, ban_until: text })), refused('ban_until must be a valid ISO 8601 date'), text);
    }), { numRuns: 500 });
  });

  it('notifications: general only; subject one line, message many, both cleaned', () => {
    assert.deepEqual(parseNotification({ user_id: 2, subject: ' Hello\nthere ', message: ' Line one\r\nLine two\u200B ' }),
      { userId: 2, subject: 'Hello there', message: 'Line one\nLine two' });
    assert.deepEqual(parseNotification({ user_id: 2, notification_type: 'general' }), { userId: 2, subject: '', message: '' });
    assert.deepEqual(parseNotification({ user_id: 2, notification_type: '', subject: 7, message: ['m'] }), { userId: 2, subject: '', message: '' });
    assert.deepEqual(outcome(() => parseNotification({ user_id: 2, notification_type: 'ban_notice' })), refused("notification_type must be 'general'"));
  });
});

describe('the profile edit (users.input.ts)', () => {
  const CURRENT = 'Renée'; // chosen before the ASCII rule

  it('only what was sent, each field checked', () => {
    const table: Array<[string, Body, unknown]> = [
      ['nothing', {}, { value: { username: undefined, bio: undefined, removeAvatar: false } }],
      ['null fields are not changes', { username: null, bio: null, remove_avatar: null }, { value: { username: undefined, bio: undefined, removeAvatar: false } }],
      ['a new name, cleaned', { username: ' ana_b\u200B ' }, { value: { username: 'ana_b', bio: undefined, removeAvatar: false } }],
      ['the current name is not checked again', { username: ` ${CURRENT} `, bio: 'hi' }, { value: { username: CURRENT, bio: 'hi', removeAvatar: false } }],
      ['a bio, cleaned', { bio: ' Line one\r\nLine two ' }, { value: { username: undefined, bio: 'Line one\nLine two', removeAvatar: false } }],
      ['an empty bio is a change', { bio: '' }, { value: { username: undefined, bio: '', removeAvatar: false } }],
      ['a 500-character bio with a Windows line ending', { bio: `${'b'.repeat(498)}\r\nb` }, { value: { username: undefined, bio: `${'b'.repeat(498)}\nb`, removeAvatar: false } }],
      ['a new name with an accent', { username: 'Renata\u00e9' }, refused(USERNAME_CHARACTERS_MESSAGE)],
      ['a short name', { username: 'ab' }, refused(USERNAME_LENGTH_MESSAGE)],
      ['a name that is a number', { username: 12345 }, refused(USERNAME_LENGTH_MESSAGE)],
      ['a bio that is an object', { bio: { text: 'x' } }, refused('Biography must be text')],
      ['a 501-character bio', { bio: 'b'.repeat(501) }, refused(BIO_LENGTH_MESSAGE)],
    ];
    for (const [name, body, expected] of table) assert.deepEqual(outcome(() => parseProfileInput(body, CURRENT)), expected, name);
  });

  it('remove_avatar: true or false as JSON or form text', () => {
    const table: Array<[unknown, boolean | undefined]> = [
      [true, true], ['true', true], ['1', true], [false, false], ['false', false], ['0', false], ['', false], [undefined, false],
      ['yes', undefined], ['TRUE', undefined], [1, undefined], [[true], undefined],
    ];
    for (const [flag, removeAvatar] of table) {
      const result = outcome(() => parseProfileInput({ remove_avatar: flag }, CURRENT));
      const expected = removeAvatar === undefined ? refused('remove_avatar must be true or false')
        : { value: { username: undefined, bio: undefined, removeAvatar } };
      assert.deepEqual(result, expected, JSON.stringify(flag));
    }
  });
});

describe('bodies and query strings (http.ts)', () => {
  const request = (query: Record<string, unknown>, body?: unknown) => ({ query, body }) as unknown as Request;

  it('a body is a plain object, or reads as empty', () => {
    for (const body of [undefined, null, 'text', 42, [1, 2], true]) assert.deepEqual(bodyOf(request({}, body)), {}, JSON.stringify(body));
    assert.deepEqual(bodyOf(request({}, { a: 1 })), { a: 1 });
  });

  it('text fields: one line, many lines, or as sent; anything but a string is absent', () => {
    const body = { line: ' a\r\nb\tc ', many: ' a\r\nb\u200B ', password: ' pass word ', number: 5 };
    assert.equal(lineText(body, 'line'), 'a b c');
    assert.equal(multilineText(body, 'many'), 'a\nb');
    assert.equal(rawText(body, 'password'), ' pass word ');
    for (const read of [lineText, multilineText, rawText]) {
      assert.equal(read(body, 'number'), undefined);
      assert.equal(read(body, 'missing'), undefined);
    }
  });

  it('query values: given once, as text', () => {
    assert.equal(queryText(request({ q: 'jazz' }), 'q'), 'jazz');
    assert.equal(queryText(request({}), 'q'), undefined);
    assert.deepEqual(outcome(() => queryText(request({ q: ['a', 'b'] }), 'q')), refused('q must be given once, as text'));
    assert.deepEqual(outcome(() => queryText(request({ q: { nested: 'x' } }), 'q')), refused('q must be given once, as text'));
  });

  it('paging: defaults, whole numbers only, limit clamped to the maximum', () => {
    const table: Array<[Record<string, unknown>, unknown]> = [
      [{}, { value: { skip: 0, limit: 20 } }],
      [{ skip: '40', limit: '10' }, { value: { skip: 40, limit: 10 } }],
      [{ skip: ' 5 ', limit: '' }, { value: { skip: 5, limit: 20 } }],
      [{ limit: '1000' }, { value: { skip: 0, limit: 100 } }],
      [{ limit: '999999999' }, { value: { skip: 0, limit: 100 } }],
      [{ skip: '-1' }, refused('skip must be a non-negative integer')],
      [{ skip: '1.5' }, refused('skip must be a non-negative integer')],
      [{ limit: '1e2' }, refused('limit must be a non-negative integer')],
      [{ limit: '9999999999' }, refused('limit must be a non-negative integer')],
      [{ limit: '0' }, refused('limit must be a positive integer')],
      [{ skip: ['1', '2'] }, refused('skip must be given once, as text')],
    ];
    for (const [query, expected] of table) assert.deepEqual(outcome(() => pageOf(request(query), 20)), expected, JSON.stringify(query));
  });

  it('choices and flags', () => {
    const sorts = ['newest', 'oldest'] as const;
    assert.equal(choiceOf(request({}), 'sort_by', sorts, 'newest'), 'newest');
    assert.equal(choiceOf(request({ sort_by: ' oldest ' }), 'sort_by', sorts, 'newest'), 'oldest');
    assert.deepEqual(outcome(() => choiceOf(request({ sort_by: 'Oldest' }), 'sort_by', sorts, 'newest')),
      refused('sort_by must be one of: newest, oldest'));
    const flags: Array<[unknown, boolean | undefined]> = [
      [undefined, false], ['', false], ['true', true], ['TRUE', true], [' 1 ', true], ['false', false], ['0', false], ['yes', undefined],
    ];
    for (const [value, flag] of flags) {
      const result = outcome(() => flagOf(request({ archived: value }), 'archived'));
      assert.deepEqual(result, flag === undefined ? refused('archived must be true or false') : { value: flag }, String(value));
    }
    assert.equal(flagOf(request({}), 'unread_only', true), true, 'the fallback when absent');
  });

  it('path ids: a positive safe integer, else the 404 of what it names', () => {
    const table: Array<[string | string[] | undefined, number | undefined]> = [
      ['1', 1], ['42', 42], ['9007199254740991', Number.MAX_SAFE_INTEGER],
      ['0', undefined], ['-1', undefined], ['01', undefined], ['1.5', undefined], ['1e3', undefined], ['abc', undefined], ['', undefined],
      [' 1', undefined], ['9007199254740992', undefined], ['99999999999999999', undefined], [undefined, undefined], [['1'], undefined],
    ];
    for (const [value, id] of table) {
      const expected = id === undefined ? refused('Article not found', 404) : { value: id };
      assert.deepEqual(outcome(() => idOf(value, 'Article not found')), expected, JSON.stringify(value));
    }
  });
});
