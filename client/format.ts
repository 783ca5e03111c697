// Pure display helpers shared by every page (SPEC §9 lengths and number formats).

/** Text cut to `length` characters at a word boundary, with an ellipsis when cut. */
export function excerpt(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > length * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** Voices cards: a bio over 78 characters is clipped to 74 plus an ellipsis (SPEC §9). */
export function clipBio(bio: string): string {
  return bio.length > 78 ? `${bio.slice(0, 74)}...` : bio;
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

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400], ['month', 30 * 86_400], ['week', 7 * 86_400],
  ['day', 86_400], ['hour', 3_600], ['minute', 60],
];

/** '3 hours ago', 'yesterday', 'just now'. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60), 'minute');
}

/** A comment is edited when updated_at is later than created_at (SPEC §3). */
export function isEdited(comment: { created_at: string; updated_at: string }): boolean {
  return Date.parse(comment.updated_at) > Date.parse(comment.created_at);
}
