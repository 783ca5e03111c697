// Splits a suggestion around the first case-insensitive match of the query, so the matched part
// can be set in <mark> (The Pulse's hashtag suggestions, SPEC §2).
export interface MatchParts {
  before: string;
  match: string;
  after: string;
}

export function splitMatch(text: string, query: string): MatchParts {
  const needle = query.trim().replace(/^#+/, '').toLowerCase();
  const at = needle ? text.toLowerCase().indexOf(needle) : -1;
  if (at < 0) return { before: text, match: '', after: '' };
  return { before: text.slice(0, at), match: text.slice(at, at + needle.length), after: text.slice(at + needle.length) };
}
