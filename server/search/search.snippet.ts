// A search result's snippet (DESIGN.md, Reach: search): up to 200 characters of the article around
// its best match, as segments of plain text, the matching words flagged — never HTML, so the
// client marks them with elements and nothing a writer typed can become markup. The title comes
// the same way, whole, so that a post found by its title shows why.
import { matchesTerm, wordSpans, type WordSpan } from '../../shared/search-text.ts';

export interface SnippetSegment {
  text: string;
  match: boolean;
}

export const SNIPPET_MAX = 200;
const ELLIPSIS = '…';
/** Room for the text itself: an ellipsis may stand at each end. */
const BUDGET = SNIPPET_MAX - 2 * ELLIPSIS.length;
/** Words shown before the first match, when the window does not start the text. */
const LEAD = 40;
/** Matches weighed when choosing the window: a long article of one common word stays cheap. */
const MATCHES_WEIGHED = 200;

interface Match extends WordSpan {
  term: number;
}

function matchesIn(text: string, terms: readonly string[]): Match[] {
  const matches: Match[] = [];
  for (const span of wordSpans(text)) {
    const term = terms.findIndex((_, i) => matchesTerm(span.word, terms, i));
    if (term >= 0) matches.push({ ...span, term });
  }
  return matches;
}

/** Where the window starts: a little before the match that begins the most varied run of matches. */
function windowStart(text: string, matches: readonly Match[]): number {
  let best: Match | undefined;
  let bestTerms = 0;
  const weighed = matches.slice(0, MATCHES_WEIGHED);
  for (const [i, first] of weighed.entries()) {
    const limit = Math.max(0, first.start - LEAD) + BUDGET;
    const terms = new Set<number>();
    for (const match of weighed.slice(i)) {
      if (match.start >= limit) break;
      terms.add(match.term);
    }
    if (terms.size > bestTerms) [best, bestTerms] = [first, terms.size];
  }
  const from = best ? Math.max(0, best.start - LEAD) : 0;
  if (!best || from === 0 || best.end <= BUDGET) return 0;
  // Start at a word's beginning: the lead's first whole word, never past the match.
  if (/\s/.test(text[from - 1]!)) return from;
  const space = text.slice(from, best.start).search(/\s/);
  return space < 0 ? best.start : from + space + 1;
}

/** The window's end: the budget's last whole word, or a hard cut if one word is longer. */
function windowEnd(text: string, start: number): number {
  if (text.length - start <= BUDGET) return text.length;
  const end = start + BUDGET;
  if (/\s/.test(text[end]!)) return end;
  const space = text.slice(start, end).search(/\s\S*$/);
  if (space > 0) return start + space;
  // No space in the budget: cut between characters, never inside a surrogate pair.
  return /[\uD800-\uDBFF]/.test(text[end - 1]!) ? end - 1 : end;
}

/**
 * The snippet of `content` for `terms` (shared/search-text.ts: the last one a prefix): white space
 * folded, an ellipsis where the text goes on. A post found by its title, tags or author alone gets
 * its content's beginning, unmarked.
 */
export function snippetOf(content: string, terms: readonly string[]): SnippetSegment[] {
  const matches = matchesIn(content, terms);
  const start = windowStart(content, matches);
  const end = windowEnd(content, start);
  const segments: SnippetSegment[] = [];
  const add = (text: string, match: boolean) => {
    const last = segments.at(-1);
    if (text === '') return;
    if (last && !last.match && !match) last.text += text;
    else segments.push({ text, match });
  };
  if (start > 0) add(ELLIPSIS, false);
  let at = start;
  for (const match of matches) {
    if (match.start < start || match.start >= end) continue;
    // A word longer than the snippet is marked as far as it shows.
    const matchEnd = Math.min(match.end, end);
    add(content.slice(at, match.start).replace(/\s+/g, ' '), false);
    add(content.slice(match.start, matchEnd), true);
    at = matchEnd;
  }
  add(content.slice(at, end).replace(/\s+/g, ' '), false);
  if (end < content.length) add(ELLIPSIS, false);
  trimEnds(segments);
  return segments;
}

/** The whole of `title` as segments, its words matching `terms` flagged. */
export function markedTitle(title: string, terms: readonly string[]): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  let at = 0;
  for (const match of matchesIn(title, terms)) {
    if (match.start > at) segments.push({ text: title.slice(at, match.start), match: false });
    segments.push({ text: title.slice(match.start, match.end), match: true });
    at = match.end;
  }
  if (at < title.length) segments.push({ text: title.slice(at), match: false });
  return segments;
}

/** No white space at either end of the snippet (beside an ellipsis neither). */
function trimEnds(segments: SnippetSegment[]): void {
  const first = segments[0];
  if (first && !first.match) first.text = first.text.replace(/^(…?)\s+/, '$1');
  const last = segments.at(-1);
  if (last && !last.match) last.text = last.text.replace(/\s+(…?)$/, '$1');
  if (segments.at(-1)?.text === '') segments.pop();
  if (segments[0]?.text === '') segments.shift();
}
