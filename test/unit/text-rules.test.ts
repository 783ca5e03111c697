// The text rules of shared/text.ts, and the property that matters to a writer: for any string
// at all, the client's checks and counters and the server's checks agree (issue 12, item 5).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { validateArticle } from '../../client/components/article-form/articleRules.ts';
import { commentProblem } from '../../shared/articles.ts';
import { validateRegister } from '../../client/validation.ts';
import { validateRegistration } from '../../server/auth/auth.service.ts';
import { commentText } from '../../server/comments/comments.service.ts';
import { HttpError } from '../../server/errors.ts';
import { parsePostInput } from '../../server/posts/posts.input.ts';
import { lineLength, normalizeLine, normalizeText, textLength } from '../../shared/text.ts';

test('normalizeText: line endings, controls and invisible characters', () => {
  const cases: Array<[string, string]> = [
    ['a\r\nb', 'a\nb'],
    ['a\rb', 'a\nb'],
    ['a\u2028b\u2029c', 'a\nb\nc'],
    ['tab\tkept', 'tab\tkept'],
    ['nul\u0000bell\u0007esc\u001Bdel\u007Fnel\u0085', 'nulbellescdelnel'],
    ['zero\u200Bwidth\uFEFF', 'zerowidth'],
    ['\u202Eevil\u202C and \u2066isolate\u2069', 'evil and isolate'],
    ['soft\u00ADhyphen', 'softhyphen'],
    ['\u3164\u115F\uFFA0', ''],
    ['  padded\n\n', 'padded'],
    ['family 👨\u200D👩\u200D👧', 'family 👨\u200D👩\u200D👧'],
    ['persian می\u200Cخواهم', 'persian می\u200Cخواهم'],
    ['\u200Dstray\u200C ', 'stray'],
    ['hidden\u{E0041}\u{E0042}tags', 'hiddentags'],
    ['flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', 'flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'],
  ];
  for (const [raw, clean] of cases) assert.equal(normalizeText(raw), clean, JSON.stringify(raw));
});

test('normalizeLine: line breaks and tabs inside become one space', () => {
  assert.equal(normalizeLine(' A title\r\nsplit\tin\n\ntwo '), 'A title split in two');
  assert.equal(lineLength('ab\u200Bc'), 3);
});

/** Strings rich in what the rules handle: line endings, controls, invisibles, emoji. */
const messyText = (maxLength: number) => fc.array(fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'é', ' ', 'z', '😀') },
  { weight: 2, arbitrary: fc.constantFrom('\r\n', '\n', '\r', '\t', '\u2028') },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0007', '\u001B', '\u007F', '\u0085', '\u200B', '\u200D', '\u202E', '\uFEFF', '\u3164') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
), { maxLength }).map((parts) => parts.join(''));

test('cleaning is idempotent and leaves no control, invisible or carriage return', () => {
  fc.assert(fc.property(messyText(200), (raw) => {
    const clean = normalizeText(raw);
    assert.equal(normalizeText(clean), clean);
    assert.equal(normalizeLine(normalizeLine(raw)), normalizeLine(raw));
    assert.doesNotMatch(clean, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B\u202A-\u202E\uFEFF\u3164]/);
  }), { numRuns: 2_000 });
});

/** The 400 message the server answers, or undefined when it accepts. */
function serverRefusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (err instanceof HttpError) return err.detail;
    throw err;
  }
}

test('article title and content: client and server accept and refuse alike, near both limits', () => {
  // Lengths near 20/80 and 150/10,000 once cleaned: padding plus messy text.
  const near = (limit: number) => fc.tuple(fc.integer({ min: limit - 12, max: limit + 4 }), messyText(24))
    .map(([n, mess]) => 'w'.repeat(Math.max(0, n)) + mess);
  fc.assert(fc.property(near(20), near(80), near(150), near(10_000), (shortTitle, longTitle, shortBody, longBody) => {
    for (const [title, content] of [[shortTitle, shortBody], [longTitle, longBody]] as const) {
      const client = validateArticle({ title, content, hashtags: ['jazz'], imageAlt: '' });
      const server = serverRefusal(() => parsePostInput({ title, content, hashtags: ['jazz'] }));
      assert.equal(server, client.title ?? client.content, JSON.stringify({ title, content: content.slice(-30) }));
    }
  }), { numRuns: 500 });
});

test('the content counter shows the length the server checks', () => {
  fc.assert(fc.property(messyText(300), (raw) => {
    const content = 'c'.repeat(150) + raw;
    const stored = parsePostInput({ title: 'A title long enough to pass', content, hashtags: ['x'] }).content;
    assert.equal(stored.length, textLength(content));
  }), { numRuns: 1_000 });
});

test('comments: client and server agree on empty and on 1,000 characters', () => {
  const comment = fc.tuple(fc.integer({ min: 990, max: 1004 }), messyText(20), fc.boolean())
    .map(([n, mess, blank]) => (blank ? mess : 'k'.repeat(n) + mess));
  fc.assert(fc.property(comment, (content) => {
    assert.equal(serverRefusal(() => commentText({ content }, 'Write a comment')), commentProblem(content, 'Write a comment'));
  }), { numRuns: 1_000 });
});

test('registration: username and bio checks agree', () => {
  const username = fc.oneof(messyText(6), fc.stringMatching(/^[A-Za-z0-9._-]{0,40}$/));
  const bio = fc.tuple(fc.integer({ min: 490, max: 505 }), messyText(20)).map(([n, mess]) => 'b'.repeat(n) + mess);
  fc.assert(fc.property(username, bio, (name, text) => {
    const fields = { username: name, email: 'ana@example.com', password: 'password123', bio: text };
    const client = validateRegister({ ...fields, confirmPassword: fields.password });
    const server = serverRefusal(() => validateRegistration(fields));
    assert.equal(server, client.username ?? client.bio, JSON.stringify(name));
  }), { numRuns: 1_000 });
});
