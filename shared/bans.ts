// The sentence a banned user reads (DESIGN.md, Bans: "403 with the reason and end date in
// `detail`"), written by the server and read back by the client, which then signs the user out
// and shows the reason and the end in the reader's own time zone.
import { parseUtcDateTime, utcDateTime } from './dates.ts';

export interface BanFacts {
  permanent: boolean;
  /** ISO time the ban ends; null when permanent. */
  until: string | null;
  reason: string;
}

const PERMANENT = 'Your account has been permanently banned.';
const UNTIL = 'Your account is banned until ';
const REASON = ' Reason: ';

/** 'Your account is banned until 12 December 2026, 10:00 UTC. Reason: spam'. */
export function banMessage(ban: BanFacts): string {
  const reason = ban.reason ? `${REASON}${ban.reason}` : '';
  if (ban.permanent || !ban.until) return `${PERMANENT}${reason}`;
  return `${UNTIL}${utcDateTime(ban.until)}.${reason}`;
}

/** The facts behind a ban message; undefined when `detail` is not one. */
export function readBanMessage(detail: string): BanFacts | undefined {
  const [head = '', ...rest] = detail.split(REASON);
  const reason = rest.join(REASON);
  if (head === PERMANENT) return { permanent: true, until: null, reason };
  if (!head.startsWith(UNTIL) || !head.endsWith('.')) return undefined;
  const until = parseUtcDateTime(head.slice(UNTIL.length, -1));
  return until ? { permanent: false, until: until.toISOString(), reason } : undefined;
}
