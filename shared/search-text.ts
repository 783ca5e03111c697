// How text is folded and cut into words for search (DESIGN.md, Reach: search): one rule for what
// is indexed and what is searched, on both databases. The server folds here, and the databases
// only ever see the words it made — SQLite's FTS5 splits on the spaces between them and PostgreSQL
// takes them as lexemes as they are — so `cafe` finds `Café` and `CAFÉ` finds `cafe` the same way
// on both, with no extension (unaccent, ICU) and no tokenizer of theirs to disagree with this one.
// The snippet of a result (server/search/) marks the words this file finds in the original text.

/** Characters kept of a word: a longer one is cut here, as indexed and as searched alike. */
export const SEARCH_WORD_MAX = 64;
/** Words of a query that count; the rest of a longer query is ignored, never an error. */
export const SEARCH_QUERY_WORDS_MAX = 32;

const MARKS = /\p{M}/gu;
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;
const ASCII_ONLY = /^[\x00-\x7F]*$/;
const ASCII_WORDS = /[a-z0-9]+/g;
const ASCII_WORD_SPANS = /[A-Za-z0-9]+/g;

/** Letters Unicode does not decompose that readers type without their stroke or ligature. */
const PLAIN_LETTERS: Readonly<Record<string, string>> = {
  'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ø': 'o', 'đ': 'd', 'ð': 'd', 'ħ': 'h', 'ł': 'l', 'ŀ': 'l',
  'ı': 'i', 'þ': 'th', 'ŧ': 't', 'ƒ': 'f',
  // A final sigma is the same letter as σ (lower-casing a whole word would pick either).
  'ς': 'σ',
};

const foldedCharacters = new Map<string, string>();
/** Distinct characters remembered: every letter of every script fits; hostile input cannot grow it further. */
const FOLD_CACHE_MAX = 200_000;

/**
 * One character (code point) as search sees it: compatibility-decomposed, without marks, lower
 * case, plain letters for ß, æ, ø, ł… Folded one character at a time, so that a word's place in
 * the original text is known (snippets) and nothing depends on its neighbours.
 */
export function foldCharacter(character: string): string {
  let folded = foldedCharacters.get(character);
  if (folded === undefined) {
    // Twice: lower-casing can bring marks back (İ → i̇) and decomposing can bring capitals (㎒ → MHz).
    const plain = character.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFKD').replace(MARKS, '');
    folded = [...plain].map((c) => PLAIN_LETTERS[c] ?? c).join('');
    if (foldedCharacters.size < FOLD_CACHE_MAX) foldedCharacters.set(character, folded);
  }
  return folded;
}

/** A word of a text: its folded form and where it stands in the original (UTF-16 offsets). */
export interface WordSpan {
  word: string;
  start: number;
  end: number;
}

function cut(word: string): string {
  return word.length <= SEARCH_WORD_MAX ? word : [...word].slice(0, SEARCH_WORD_MAX).join('');
}

/**
 * The words of a text with their places: runs of letters and digits once folded. Marks inside a
 * word belong to it (`Cafe\u0301` is one word); anything else — spaces, punctuation, symbols,
 * emoji, control characters — separates words.
 */
export function wordSpans(text: string): WordSpan[] {
  if (ASCII_ONLY.test(text)) {
    return [...text.matchAll(ASCII_WORD_SPANS)].map((m) => ({ word: cut(m[0].toLowerCase()), start: m.index, end: m.index + m[0].length }));
  }
  const spans: WordSpan[] = [];
  let word = '';
  let start = 0;
  let end = 0;
  let at = 0;
  for (const character of text) {
    const folded = foldCharacter(character);
    for (const c of folded) {
      if (WORD_CHARACTER.test(c)) {
        if (word === '') start = at;
        word += c;
        end = at + character.length;
      } else if (word !== '') {
        spans.push({ word: cut(word), start, end });
        word = '';
      }
    }
    if (folded === '' && word !== '') end = at + character.length;
    at += character.length;
  }
  if (word !== '') spans.push({ word: cut(word), start, end });
  return spans;
}

/** The folded words of a text, in order (the common all-ASCII text without folding each character). */
export function searchWords(text: string): string[] {
  if (ASCII_ONLY.test(text)) return (text.toLowerCase().match(ASCII_WORDS) ?? []).map(cut);
  return wordSpans(text).map((span) => span.word);
}

/** What the index holds of an article: distinct words, space-separated. */
export interface SearchDocument {
  /** The title's words (a title match ranks first). */
  title: string;
  /** Every word of the article: title, content, hashtags and the author's username. */
  words: string;
}

export function searchDocument(post: { title: string; content: string; hashtags: readonly string[]; username: string }): SearchDocument {
  const distinct = (words: string[]) => [...new Set(words)].join(' ');
  return {
    title: distinct(searchWords(post.title)),
    words: distinct([post.title, post.content, ...post.hashtags, post.username].flatMap(searchWords)),
  };
}

/**
 * A query's words as search uses them: every one must match, the last one as a prefix (what a
 * reader is still typing). Repeats are dropped; the last word stays last. No words (empty input,
 * only punctuation or emoji): nothing to search for.
 */
export function searchTerms(query: string): string[] {
  const words = searchWords(query);
  const last = words.at(-1);
  if (last === undefined) return [];
  const exact = [...new Set(words.slice(0, -1))].filter((word) => word !== last);
  return [...exact.slice(0, SEARCH_QUERY_WORDS_MAX - 1), last];
}

/** Whether a word of a text matches term `index` of `terms` (the last is a prefix). */
export function matchesTerm(word: string, terms: readonly string[], index: number): boolean {
  return index === terms.length - 1 ? word.startsWith(terms[index]!) : word === terms[index];
}
