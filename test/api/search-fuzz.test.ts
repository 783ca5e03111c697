// Hostile input to GET /api/search (DESIGN.md: any input is plain words, never an error): 1,000
// generated queries — random Unicode, both databases' search operators, quotes and brackets left
// open, control characters, emoji, words a thousand characters long — each answered 200 with a
// well-formed page (but a NUL or a lone surrogate: a 400, server/refused-text.ts), over
// articles in several scripts so that many of them match something.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createUser, startTestServer, type TestServer } from '../helpers.ts';
import { REFUSED_TEXT, isAllowedText } from '../../server/refused-text.ts';
import { createPost } from './factories.ts';

let server: TestServer;

const TEXTS = [
  'Café Zéphyr: crème brûlée, naïve façades and the jazz of Straße Nº 5.',
  'Ωραία νύχτα στην Αθήνα, ΣΟΦΟΣ και σοφός, με καφέ και τζαζ.',
  'Ночной поезд идёт в Москву; чай, кофе и стихи до утра.',
  '東京の夜、ジャズ喫茶でコーヒーを飲む。서울의 밤, 재즈와 커피.',
  'القهوة في الليل، وموسيقى الجاز في المدينة القديمة.',
  'Emoji 🎷🎺☕ and flags 🏴‍☠️ beside words: "quoted", (bracketed), AND, OR, NEAR, title:jazz*.',
];

before(async () => {
  server = await startTestServer();
  const author = await createUser(server);
  for (const [i, text] of TEXTS.entries()) {
    const title = `Fuzz article ${i}: ${text.split(' ').slice(0, 4).join(' ')}`;
    await createPost(server, author, { title, content: Array(6).fill(text).join(' '), hashtags: ['fuzz'] });
  }
});
after(async () => { await server.stop(); });

const OPERATORS = ['AND', 'OR', 'NOT', 'NEAR', 'NEAR(', ')', '(', '"', "'", '*', ':*', '-', '+', '^', ':', 'title:', '{title body}:', '&', '|', '!', '<->', '\\', '%', '_', '[', ']', '{', '}', ';', '--', '/*', '\u0000', '\u0007', '\u001b', '\u202e', '\u200b', '\ufeff', '\ud83c\udfb7', '\ud800'];
const WORDS = ['cafe', 'CAFÉ', 'jazz', 'caf', 'σοφος', 'кофе', 'ジャズ', 'القهوة', 'crème', 'strasse', 'fuzz', 'article'];

/** One query: pieces of operators, words, random Unicode and long runs, joined by random separators. */
const query = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.oneof(fc.constantFrom(...OPERATORS), fc.constantFrom(...WORDS), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 12 })
    .chain((parts) => fc.array(fc.constantFrom(' ', '', '  ', '\t', '\n'), { minLength: parts.length, maxLength: parts.length })
      .map((gaps) => parts.map((part, i) => part + gaps[i]).join(''))) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.constantFrom(...OPERATORS), fc.constantFrom(...WORDS)), { maxLength: 4 }).map((parts) => parts.join(' ')) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 500, maxLength: 1000 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...WORDS, 'x', 'é'), fc.integer({ min: 200, max: 1000 })).map(([word, n]) => word.repeat(n).slice(0, 1000)) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 30, maxLength: 120 }).map((words) => words.join(' ')) },
);

/** Lone surrogates cannot be URL-encoded as UTF-8: they are sent as the bytes a careless client would. */
function encoded(text: string): string {
  return [...text].map((c) => (/^[\ud800-\udfff]$/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
}

test('1,000 random queries: every answer a 200 with a page of posts and a total (a 400 for refused text)', async (t) => {
  const queries = fc.sample(query, { numRuns: 1000, seed: 15 });
  let matched = 0;
  let refused = 0;
  for (const [i, q] of queries.entries()) {
    const page = i % 10 === 0 ? `&skip=${i % 7}&limit=${1 + (i % 5)}` : '';
    const res = await server.api('GET', `/api/search?q=${encoded(q)}${page}`);
    if (!isAllowedText(q)) { // a NUL or a lone surrogate: refused (server/refused-text.ts)
      assert.deepEqual([res.status, res.body], [400, { detail: REFUSED_TEXT }], JSON.stringify(q));
      refused += 1;
      continue;
    }
    assert.equal(res.status, 200, `${JSON.stringify(q)} → ${res.status} ${JSON.stringify(res.body)}`);
    assert.ok(Array.isArray(res.body.posts) && Number.isInteger(res.body.total), JSON.stringify(q));
    for (const post of res.body.posts) assert.ok(Array.isArray(post.snippet), JSON.stringify(q));
    if (res.body.total > 0) matched += 1;
  }
  t.diagnostic(`${matched} of 1,000 queries found articles; ${refused} refused`);
  assert.ok(matched > 100, `some queries find articles (${matched} did)`);
});
