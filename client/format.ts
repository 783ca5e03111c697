// Pure display helpers shared by every page (SPEC §9 lengths and number formats). The rules the
// server writes too (excerpts, plurals, human dates) live in shared/ and are re-exported here.
import { clipped } from '../shared/excerpt.ts';
import { plural } from '../shared/plural.ts';

export { excerpt } from '../shared/excerpt.ts';
export { plural, pluralNoun } from '../shared/plural.ts';
export { humanDate, humanDateTime } from '../shared/dates.ts';

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

/** 'November 2026' for "Joined …". */
export function monthYear(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
}

const DAY = 86_400;
/** Largest unit first: a time is told in the largest unit it has reached. */
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * DAY], ['month', 30 * DAY], ['week', 7 * DAY], ['day', DAY], ['hour', 3_600], ['minute', 60],
];
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/**
 * The one rule for relative dates on every page: under a minute 'just now'; then whole units,
 * rounded down, in the largest unit reached — minutes up to 59, hours up to 23, days up to 6,
 * weeks up to 4, months (30 days) up to 12, then years. So 23 h 59 min is '23 hours ago' and 24 h
 * is '1 day ago': never 'yesterday' beside '24 hours ago'. Future times (a fast clock) read alike.
 */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  const size = Math.abs(seconds);
  for (const [unit, unitSeconds] of UNITS) {
    if (size >= unitSeconds) return RELATIVE.format(Math.sign(seconds) * Math.floor(size / unitSeconds), unit);
  }
  return 'just now';
}

/** A comment is edited when updated_at is later than created_at (SPEC §3). */
export function isEdited(comment: { created_at: string; updated_at: string }): boolean {
  return Date.parse(comment.updated_at) > Date.parse(comment.created_at);
}
