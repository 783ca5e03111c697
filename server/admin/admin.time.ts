// Human text for how long a ban still runs, as the Banned tab shows it.
import { plural } from '../../shared/plural.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: ReadonlyArray<[number, string]> = [[DAY, 'day'], [HOUR, 'hour'], [MINUTE, 'minute']];

/**
 * Seconds left → the two largest non-zero units, rounded down: '3 days, 4 hours', '5 hours',
 * '12 minutes', 'less than a minute'. null (a permanent ban) → 'Permanent'; ≤ 0 → 'Expired'.
 */
export function formatTimeRemaining(seconds: number | null): string {
  if (seconds === null) return 'Permanent';
  if (!(seconds > 0)) return 'Expired';
  if (seconds < MINUTE) return 'less than a minute';
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [size, unit] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(plural(n, unit));
    else if (parts.length > 0) break; // '3 days, 0 hours, 5 minutes' reads as '3 days'
    if (parts.length === 2) break;
  }
  return parts.join(', ');
}

/** Seconds from now until an ISO time; null for no end (permanent). Never negative. */
export function secondsUntil(until: string | null, now: Date): number | null {
  if (until === null) return null;
  return Math.max(0, Math.floor((Date.parse(until) - now.getTime()) / 1000));
}
