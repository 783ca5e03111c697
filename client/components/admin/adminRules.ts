// The admin dialogs' rules (SPEC §5, Ban and Notify; SPEC §9, Ban), pure for unit tests.
import type { BanBody } from '../../types.ts';

import { BAN_DAYS_MAX, BAN_DAYS_MIN, INCOMPLETE_MESSAGE } from '../../../shared/moderation.ts';

export { BAN_DAYS_MAX, BAN_DAYS_MIN, DELETE_REASON_REQUIRED } from '../../../shared/moderation.ts';
export const BAN_DAYS_DEFAULT = 1;
export const INCOMPLETE = INCOMPLETE_MESSAGE;

/** The days field as typed → whole days 1–365; anything non-numeric becomes 1. */
export function banDaysOf(text: string): number {
  const days = Number.parseInt(text.trim(), 10);
  if (!Number.isFinite(days)) return BAN_DAYS_DEFAULT;
  return Math.min(BAN_DAYS_MAX, Math.max(BAN_DAYS_MIN, days));
}

export type BanType = BanBody['ban_type'];

/** The ban request, or the message to show when the reason is missing. */
export function banPayload(userId: number, type: BanType, daysText: string, reason: string, now = Date.now()):
  BanBody | { error: string } {
  const ban_reason = reason.trim();
  if (!ban_reason) return { error: INCOMPLETE };
  if (type === 'permanent') return { user_id: userId, ban_type: 'permanent', ban_reason };
  const days = banDaysOf(daysText);
  return { user_id: userId, ban_type: 'temporary', ban_reason, ban_until: new Date(now + days * 86_400_000).toISOString() };
}

/** The toast after a ban when the server sent no message of its own. */
export function banSuccessText(type: BanType, days: number): string {
  return type === 'permanent' ? 'User permanently banned successfully' : `User banned for ${days} days`;
}
