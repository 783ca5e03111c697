// The form rules of shared/articles.ts and shared/accounts.ts at their exact limits, measured after
// cleaning as the server measures them. (The client and server agreeing on them for any string is
// text-rules.test.ts; the characters of a username and emails are users-names.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BIO_LENGTH_MESSAGE, PASSWORD_LONG_MESSAGE, PASSWORD_SHORT_MESSAGE, USERNAME_CHARACTERS_MESSAGE,
  USERNAME_LENGTH_MESSAGE, USERNAME_SHORT_MESSAGE, bioProblem, passwordProblem, usernameProblem,
} from '../../shared/accounts.ts';
import {
  CONTENT_MESSAGE, HASHTAG_CHARACTERS_MESSAGE, HASHTAG_LENGTH_MESSAGE, TITLE_MESSAGE, contentProblem, hashtagProblem,
  normalizeHashtag, titleProblem,
} from '../../shared/articles.ts';

const x = (n: number) => 'x'.repeat(n);

describe('article title and content', () => {
  it('titles: 20 to 80 characters of one line, after cleaning', () => {
    const table: Array<[string, string, string | undefined]> = [
      ['19 characters', x(19), TITLE_MESSAGE],
      ['20 characters', x(20), undefined],
      ['80 characters', x(80), undefined],
      ['81 characters', x(81), TITLE_MESSAGE],
      ['19 padded with spaces', `   ${x(19)}   `, TITLE_MESSAGE],
      ['19 made 20 by a zero-width space', `${x(10)}\u200B${x(9)}`, TITLE_MESSAGE],
      ['a line break inside counts as one space', `${x(10)}\r\n${x(9)}`, undefined],
      ['80 and a control character', `${x(80)}\u0007`, undefined],
      ['empty', '', TITLE_MESSAGE],
    ];
    for (const [name, title, problem] of table) assert.equal(titleProblem(title), problem, name);
  });

  it('content: 150 to 10,000 characters, a Windows line ending counting as one', () => {
    const table: Array<[string, string, string | undefined]> = [
      ['149 characters', x(149), CONTENT_MESSAGE],
      ['150 characters', x(150), undefined],
      ['10,000 characters', x(10_000), undefined],
      ['10,001 characters', x(10_001), CONTENT_MESSAGE],
      ['148, \\r\\n and 1: 150', `${x(148)}\r\n${x(1)}`, undefined],
      ['9,998, \\r\\n and 1: 10,000', `${x(9_998)}\r\n${x(1)}`, undefined],
      ['9,998, \\r\\n and 2: 10,001', `${x(9_998)}\r\n${x(2)}`, CONTENT_MESSAGE],
      ['149 and trailing blank lines', `${x(149)}\n\n\n`, CONTENT_MESSAGE],
    ];
    for (const [name, content, problem] of table) assert.equal(contentProblem(content), problem, name);
  });
});

describe('hashtags', () => {
  it('normalised: cleaned, leading #s stripped, trimmed, lower-cased', () => {
    const table: Array<[string, string]> = [
      ['#Jazz ', 'jazz'],
      ['  ##Beat', 'beat'],
      ['# jazz', 'jazz'],
      ['# #jazz', 'jazz'],
      ['J\u200BAZZ', 'jazz'],
      ['ÉTÉ', 'été'],
      ['a#b', 'a#b'],
      ['free\tjazz', 'free jazz'],
      ['#', ''],
      ['   ', ''],
    ];
    for (const [raw, tag] of table) assert.equal(normalizeHashtag(raw), tag, JSON.stringify(raw));
  });

  it('letters of any script, digits, - and _; at most 20 characters', () => {
    const table: Array<[string, string | undefined]> = [
      [x(20), undefined],
      [x(21), HASHTAG_LENGTH_MESSAGE],
      ['año_2-b', undefined],
      ['日本語', undefined],
      ['straße', undefined],
      ['free jazz', HASHTAG_CHARACTERS_MESSAGE],
      ['jazz!', HASHTAG_CHARACTERS_MESSAGE],
      ['a#b', HASHTAG_CHARACTERS_MESSAGE],
      ['🎷', HASHTAG_CHARACTERS_MESSAGE],
      ['', HASHTAG_CHARACTERS_MESSAGE],
    ];
    for (const [tag, problem] of table) assert.equal(hashtagProblem(tag), problem, tag);
  });

  it('any input: the tag has no outer spaces and no capitals, and normalising it again changes nothing', () => {
    const typed = fc.array(fc.constantFrom('#', ' ', '\t', '\n', 'a', 'B', 'é', 'Ü', '_', '-', '1', '\u200B', '\u202E', '!', 'İ'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(fc.property(typed, (raw) => {
      const tag = normalizeHashtag(raw);
      assert.equal(tag, tag.trim());
      assert.equal(tag, tag.toLowerCase());
      // A stored tag must find itself when a reader searches for it (?hashtag=…).
      assert.equal(normalizeHashtag(tag), tag);
    }), { numRuns: 2_000 });
  });
});

describe('account fields', () => {
  it('usernames: registration says "at least 3" of a short name, the profile "between 3 and 35"', () => {
    const table: Array<[string, string | undefined, string | undefined]> = [
      ['ab', USERNAME_SHORT_MESSAGE, USERNAME_LENGTH_MESSAGE],
      ['  ab  ', USERNAME_SHORT_MESSAGE, USERNAME_LENGTH_MESSAGE],
      ['a\u200Bb', USERNAME_SHORT_MESSAGE, USERNAME_LENGTH_MESSAGE],
      ['abc', undefined, undefined],
      [x(35), undefined, undefined],
      [x(36), USERNAME_LENGTH_MESSAGE, USERNAME_LENGTH_MESSAGE],
      ['ana bob', USERNAME_CHARACTERS_MESSAGE, USERNAME_CHARACTERS_MESSAGE],
      ['jose.', USERNAME_CHARACTERS_MESSAGE, USERNAME_CHARACTERS_MESSAGE],
      ['Renée', USERNAME_CHARACTERS_MESSAGE, USERNAME_CHARACTERS_MESSAGE],
      [' ana.b-c_d ', undefined, undefined],
    ];
    for (const [name, register, profile] of table) {
      assert.equal(usernameProblem(name, 'register'), register, `register ${JSON.stringify(name)}`);
      assert.equal(usernameProblem(name, 'profile'), profile, `profile ${JSON.stringify(name)}`);
    }
  });

  it('any name: the two forms differ only in how they word a short name', () => {
    const name = fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^[A-Za-z0-9._ -]{0,40}$/));
    fc.assert(fc.property(name, (raw) => {
      const register = usernameProblem(raw, 'register');
      const profile = usernameProblem(raw, 'profile');
      if (register !== profile) assert.deepEqual([register, profile], [USERNAME_SHORT_MESSAGE, USERNAME_LENGTH_MESSAGE]);
    }), { numRuns: 2_000 });
  });

  it('any ASCII name of 3 to 35 letters, digits, dots, hyphens and underscores, alphanumeric at both ends, is accepted', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{1,33}[A-Za-z0-9]$/), (name) => {
      assert.equal(usernameProblem(name, 'register'), undefined, name);
    }), { numRuns: 1_000 });
  });

  it('passwords: 6 to 1000 characters exactly as typed, spaces and invisible characters included', () => {
    const table: Array<[string, string | undefined]> = [
      [x(5), PASSWORD_SHORT_MESSAGE],
      [x(6), undefined],
      [' '.repeat(6), undefined],
      ['\u200B'.repeat(6), undefined],
      [` ${x(4)} `, undefined],
      [`  ${x(2)} `, PASSWORD_SHORT_MESSAGE],
      [x(1000), undefined],
      [x(1001), PASSWORD_LONG_MESSAGE],
    ];
    for (const [password, problem] of table) assert.equal(passwordProblem(password), problem, JSON.stringify(password.slice(0, 10)));
  });

  it('biographies: at most 500 characters after cleaning, a Windows line ending counting as one', () => {
    const table: Array<[string, string | undefined]> = [
      ['', undefined],
      [x(500), undefined],
      [x(501), BIO_LENGTH_MESSAGE],
      [`${x(498)}\r\n${x(1)}`, undefined],
      [`${x(499)}\r\n${x(1)}`, BIO_LENGTH_MESSAGE],
      [`  ${x(500)}\n\n`, undefined],
      [`${x(500)}\u200B\u202E`, undefined],
    ];
    for (const [bio, problem] of table) assert.equal(bioProblem(bio), problem, `${bio.length} characters`);
  });
});
