// The admin panel's request bodies (SPEC §3, Payloads), turned into typed values or a 400.
import { badRequest } from '../errors.ts';
import type { Body } from '../http.ts';
import { lineText, multilineText } from '../http.ts';
import type { UserLevel } from '../schema.ts';


/** user_id as a JSON number or digit text (form posts); anything else cannot name a user. */
export function userIdOf(body: Body): number {
  const value = body.user_id;
  const id = typeof value === 'number' ? value
    : typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw badRequest('user_id must be a positive integer');
  return id;
}

export interface LevelChange {
  userId: number;
  level: UserLevel;
}

export function parseLevelChange(body: Body): LevelChange {
  const userId = userIdOf(body);
  const level = lineText(body, 'level');
  if (level !== 'user' && level !== 'admin') throw badRequest("Level must be 'user' or 'admin'");
  return { userId, level };
}

export interface BanRequest {
  userId: number;
  permanent: boolean;
  /** The end of a temporary ban; null for a permanent one (and for a missing date, which the service refuses). */
  until: Date | null;
  reason: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseBan(body: Body): BanRequest {
  const userId = userIdOf(body);
  const type = lineText(body, 'ban_type') || 'temporary';
  if (type !== 'temporary' && type !== 'permanent') throw badRequest("ban_type must be 'temporary' or 'permanent'");
  const reason = lineText(body, 'ban_reason') ?? '';
  if (type === 'permanent') return { userId, permanent: true, until: null, reason };
  const untilText = lineText(body, 'ban_until') ?? '';
  if (untilText === '') return { userId, permanent: false, until: null, reason };
  const until = ISO_DATE.test(untilText) && isCalendarDate(untilText) ? new Date(untilText) : undefined;
  if (!until || Number.isNaN(until.getTime())) throw badRequest('ban_until must be a valid ISO 8601 date');
  return { userId, permanent: false, until, reason };
}

/** Date would roll 2026-02-31 over to March; refuse days a month does not have. */
function isCalendarDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export interface NotificationRequest {
  userId: number;
  subject: string;
  message: string;
}

export function parseNotification(body: Body): NotificationRequest {
  const userId = userIdOf(body);
  const type = lineText(body, 'notification_type') || 'general';
  if (type !== 'general') throw badRequest("notification_type must be 'general'");
  return { userId, subject: lineText(body, 'subject') ?? '', message: multilineText(body, 'message') ?? '' };
}
