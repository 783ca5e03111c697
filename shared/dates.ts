// Dates people read (DESIGN.md, Edges): '12 December 2026, 10:00', never an ISO string. The
// server has no reader's time zone, so its messages give UTC and say so; the client formats the
// ISO fields of the API in the reader's own time zone. English words, 24-hour clock, both sides.

const FORMATS = new Map<string, Intl.DateTimeFormat>();

/**
 * An Intl.DateTimeFormat made once per locale and options (time zone included), then reused: making
 * one costs far more than using it, and its native memory lingers until a collection, so a formatter
 * made in every server render left the process up to 150 MB larger under load.
 */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    FORMATS.set(key, format);
  }
  return format;
}

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  return dateFormat('en-GB', {
    day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone,
  });
}

function partsOf(when: Date | string, timeZone: string | undefined): Record<string, string> {
  const date = typeof when === 'string' ? new Date(when) : when;
  return Object.fromEntries(formatter(timeZone).formatToParts(date).map((p) => [p.type, p.value]));
}

/** '12 December 2026, 10:00' in the given time zone (the runtime's own when none is given). */
export function humanDateTime(when: Date | string, timeZone?: string): string {
  const p = partsOf(when, timeZone);
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}`;
}

/** '12 December 2026'. */
export function humanDate(when: Date | string, timeZone?: string): string {
  const p = partsOf(when, timeZone);
  return `${p.day} ${p.month} ${p.year}`;
}

/** What a server message says: '12 December 2026, 10:00 UTC'. */
export function utcDateTime(when: Date | string): string {
  return `${humanDateTime(when, 'UTC')} UTC`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
  'October', 'November', 'December'];

/** utcDateTime read back: '12 December 2026, 10:00 UTC' → that instant; undefined for anything else. */
export function parseUtcDateTime(text: string): Date | undefined {
  const match = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4}), (\d{2}):(\d{2}) UTC$/.exec(text);
  const month = match ? MONTHS.indexOf(match[2]!) : -1;
  if (!match || month < 0) return undefined;
  return new Date(Date.UTC(Number(match[3]), month, Number(match[1]), Number(match[4]), Number(match[5])));
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
