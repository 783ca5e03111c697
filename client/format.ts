// Pure display helpers shared by every page (SPEC §9 lengths and number formats). The rules the
// server writes too (excerpts, plurals, human and relative dates) live in shared/ and are
// re-exported here.
import { dateFormat } from '../shared/dates.ts';
import { clipped, excerpt } from '../shared/excerpt.ts';
import { htmlText } from '../shared/html-text.ts';
import { plural } from '../shared/plural.ts';

export { excerpt } from '../shared/excerpt.ts';
export { plural, pluralNoun } from '../shared/plural.ts';
export { humanDate, humanDateTime, relativeTime } from '../shared/dates.ts';

/** A card's teaser: the start of an article's text without its markup (DESIGN.md, Writing). */
export function postExcerpt(post: { content_html: string }, length: number): string {
  return excerpt(htmlText(post.content_html), length);
}

/** Voices cards: a bio over 78 characters is clipped to 74 plus an ellipsis (SPEC §9). */
export function clipBio(bio: string): string {
  return bio.length > 78 ? clipped(bio.slice(0, 74)) : bio;
}

/** The count line of a paged list: 'Showing 50 of 73 authors' (SPEC §2, Voices footer). */
export function showingCount(shown: number, total: number, noun: string): string {
  return `Showing ${shown} of ${plural(total, noun)}`;
}

/** Post counts above 999 shown with k: 1000 → '1k', 1250 → '1.3k', 15400 → '15k'. */
export function compactCount(n: number): string {
  if (n <= 999) return String(n);
  const thousands = n / 1000;
  const text = thousands < 10 ? thousands.toFixed(1) : String(Math.round(thousands));
  return `${text.replace(/\.0$/, '')}k`;
}

/** Mojo in the header and on cards: rounded. */
export function mojoRounded(mojo: number): string {
  return String(Math.round(mojo));
}

/** Mojo on profiles, and average ratings: one decimal. */
export function oneDecimal(n: number): string {
  return (Math.round(n * 10) / 10).toFixed(1);
}

/** 'November 2026' for "Joined …", in the given time zone (the runtime's own when none is given). */
export function monthYear(iso: string, timeZone?: string): string {
  return dateFormat('en-US', { month: 'long', year: 'numeric', timeZone }).format(new Date(iso));
}

/** A comment is edited when updated_at is later than created_at (SPEC §3). */
export function isEdited(comment: { created_at: string; updated_at: string }): boolean {
  return Date.parse(comment.updated_at) > Date.parse(comment.created_at);
}
