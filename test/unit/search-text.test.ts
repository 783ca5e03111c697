// Search's text rules (shared/search-text.ts) and snippets (server/search/search.snippet.ts): what
// counts as a word, how it is folded, and what a result shows around its match.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SNIPPET_MAX, snippetOf } from '../../server/search/search.snippet.ts';
import {
  SEARCH_QUERY_WORDS_MAX, SEARCH_WORD_MAX, foldCharacter, searchDocument, searchTerms, searchWords, wordSpans,
} from '../../shared/search-text.ts';

test('words are folded: accents, case, compatibility forms and plain letters', () => {
  const cases: Array<[string, string[]]> = [
    ['Café CAFÉ cafe\u0301', ['cafe', 'cafe', 'cafe']],
    ['Straße STRASSE', ['strasse', 'strasse']],
    ['Øre Æsir œuvre Łódź', ['ore', 'aesir', 'oeuvre', 'lodz']],
    ['İstanbul ıslak', ['istanbul', 'islak']],
    ['ΣΟΦΟΣ σοφός', ['σοφοσ', 'σοφοσ']],
    ['ﬁne Ｆｕｌｌ ①', ['fine', 'full', '1']],
    ['Crème brûlée, naïve façade', ['creme', 'brulee', 'naive', 'facade']],
    ['東京タワー 서울', ['東京タワー', '서울'.normalize('NFKD')]],
  ];
  for (const [text, words] of cases) assert.deepEqual(searchWords(text), words, text);
});

test('anything but letters and digits separates words, whatever either database would read in it', () => {
  assert.deepEqual(searchWords('"jazz" AND coffee* NEAR(a b) -rain title:x {col}: ^start \'quote\\ 100%'),
    ['jazz', 'and', 'coffee', 'near', 'a', 'b', 'rain', 'title', 'x', 'col', 'start', 'quote', '100']);
  assert.deepEqual(searchWords('🎷jazz🎺 night\u0000club\u200Bbar'), ['jazz', 'night', 'club', 'bar']);
  assert.deepEqual(searchWords('#small-press @ana_b ana.b'), ['small', 'press', 'ana', 'b', 'ana', 'b']);
  assert.deepEqual(searchWords('*** " ( ) :: 🎷'), []);
});

test('a word is cut to its first 64 characters, indexed and searched alike', () => {
  const long = 'é'.repeat(100);
  assert.deepEqual(searchWords(long), ['e'.repeat(SEARCH_WORD_MAX)]);
  assert.deepEqual(searchWords('x'.repeat(100)), ['x'.repeat(SEARCH_WORD_MAX)]);
  assert.deepEqual(searchTerms('𝒜'.repeat(80)), ['a'.repeat(SEARCH_WORD_MAX)]);
});

test('the all-ASCII shortcut finds the same words as folding each character', () => {
  const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 80 });
  fc.assert(fc.property(ascii, (text) => {
    // The same text with one non-ASCII character appended takes the general path.
    const general = searchWords(`${text} ½`).slice(0, -2);
    assert.deepEqual(searchWords(text), general);
    assert.deepEqual(wordSpans(text).map((s) => s.word), general);
  }));
});

test('each word knows where it stands in the original text', () => {
  const text = 'Un Café\u0301 au «lait» — 𝐁old';
  const spans = wordSpans(text);
  assert.deepEqual(spans.map((s) => s.word), ['un', 'cafe', 'au', 'lait', 'bold']);
  assert.deepEqual(spans.map((s) => text.slice(s.start, s.end)), ['Un', 'Café\u0301', 'au', 'lait', '𝐁old']);
  fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (random) => {
    for (const span of wordSpans(random)) assert.ok(searchWords(random.slice(span.start, span.end)).includes(span.word));
  }));
});

test('foldCharacter never grows a character into something a query could not type', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (character) => {
    const folded = foldCharacter(character);
    assert.equal(folded, foldCharacter(character));
    assert.ok(folded.length <= 18, `${JSON.stringify(character)} → ${JSON.stringify(folded)}`);
  }));
});

test('a query: every word, the last as a prefix, repeats dropped, at most 32 words', () => {
  assert.deepEqual(searchTerms('  '), []);
  assert.deepEqual(searchTerms('"" *** 🎷'), []);
  assert.deepEqual(searchTerms('Jazz jazz CAFÉ caf'), ['jazz', 'cafe', 'caf']);
  assert.deepEqual(searchTerms('caf jazz caf'), ['jazz', 'caf']);
  const many = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ');
  const terms = searchTerms(many);
  assert.equal(terms.length, SEARCH_QUERY_WORDS_MAX);
  assert.equal(terms.at(-1), 'w49', 'the word being typed is kept');
});

test('an article as indexed: distinct words of the title, and of all of it with hashtags and author', () => {
  assert.deepEqual(
    searchDocument({ title: 'Café, café and CAFÉS', content: 'Jazz at the café. Jazz!', hashtags: ['small-press', 'jazz'], username: 'Ana_B' }),
    { title: 'cafe and cafes', words: 'cafe and cafes jazz at the small press ana b' },
  );
});

const wellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
const joined = (segments: Array<{ text: string }>) => segments.map((s) => s.text).join('');
const marked = (segments: Array<{ text: string; match: boolean }>) => segments.filter((s) => s.match).map((s) => s.text);

test('snippet: the matching words marked as written, white space folded, nothing cut when it fits', () => {
  const segments = snippetOf('We met at the Café\n\nde Flore,   where CAFE noir flowed.', ['cafe']);
  assert.equal(joined(segments), 'We met at the Café de Flore, where CAFE noir flowed.');
  assert.deepEqual(marked(segments), ['Café', 'CAFE']);
  assert.deepEqual(snippetOf('The typewriter jammed.', ['typewri']), [
    { text: 'The ', match: false }, { text: 'typewriter', match: true }, { text: ' jammed.', match: false },
  ]);
});

test('snippet: at most 200 characters around the best match, cut at words, with ellipses', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const content = `${filler(60)} the harbor lights blinked ${filler(60)} a lonely harbor and its rain ${filler(60)}`;
  const segments = snippetOf(content, ['rain', 'harbor']);
  const text = joined(segments);
  assert.ok(text.length <= SNIPPET_MAX, `${text.length}: ${text}`);
  assert.ok(text.startsWith('…') && text.endsWith('…'), text);
  assert.deepEqual(marked(segments), ['harbor', 'rain'], 'the window holding both words wins over the first match');
  const words = new Set(content.split(' '));
  for (const word of text.replace(/…/g, '').split(' ')) assert.ok(words.has(word), `a whole word: ${word}`);
});

test('snippet: a match found only elsewhere (title, tags, author) shows the beginning, unmarked', () => {
  const content = `${'Nothing to see here. '.repeat(20)}`;
  const segments = snippetOf(content, ['jazz']);
  assert.equal(segments.length, 1);
  assert.equal(segments[0]!.match, false);
  assert.ok(segments[0]!.text.startsWith('Nothing to see here.'));
  assert.ok(segments[0]!.text.endsWith('…') && segments[0]!.text.length <= SNIPPET_MAX);
});

test('snippet: one endless word is cut hard, never inside a character', () => {
  const content = `${'🎷'.repeat(150)}jazz`;
  const text = joined(snippetOf(content, ['jazz']));
  assert.ok(text.length <= SNIPPET_MAX);
  assert.ok(wellFormed(text), 'no lone surrogate');
});

test('snippet: any text, any words: within 200 characters, segments that rebuild a part of the text', () => {
  fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), fc.string({ maxLength: 30 }), (content, query) => {
    const terms = searchTerms(query);
    const segments = snippetOf(content, terms.length ? terms : ['x']);
    const text = joined(segments);
    assert.ok(text.length <= SNIPPET_MAX);
    assert.ok(wellFormed(text));
    for (const s of segments) assert.ok(s.text.length > 0);
    const flat = content.replace(/\s+/g, ' ');
    assert.ok(flat.includes(text.replace(/^…/, '').replace(/…$/, '').trim()), JSON.stringify({ content, text }));
  }), { numRuns: 300 });
});

test('snippet: a matching word longer than the snippet is marked as far as it shows', () => {
  const segments = snippetOf(`${'W'.repeat(10_000)} and more`, ['w']);
  assert.deepEqual(segments, [{ text: 'W'.repeat(198), match: true }, { text: '…', match: false }]);
});
