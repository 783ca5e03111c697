// Dates people read (DESIGN.md, Edges): '12 December 2026, 10:00', never an ISO string. The
// server has no reader's time zone, so its messages give UTC and say so; the client formats the
// ISO fields of the API in the reader's own time zone. English words, 24-hour clock, both sides.

const PARTS = new Map<string | undefined, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = PARTS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone,
    });
    PARTS.set(timeZone, format);
  }
  return format;
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
