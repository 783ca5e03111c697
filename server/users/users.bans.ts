// Whether a user is banned right now. Temporary bans end by themselves when ban_until passes.
import type { UserRow } from '../schema.ts';

export interface ActiveBan {
  permanent: boolean;
  until: string | null;
  reason: string;
}

type BanFields = Pick<UserRow, 'banned_at' | 'ban_permanent' | 'ban_until' | 'ban_reason'>;

export function activeBan(user: BanFields, now = new Date()): ActiveBan | undefined {
  if (!user.banned_at) return undefined;
  const reason = user.ban_reason ?? '';
  if (user.ban_permanent) return { permanent: true, until: null, reason };
  if (user.ban_until && user.ban_until > now.toISOString()) {
    return { permanent: false, until: user.ban_until, reason };
  }
  return undefined;
}

/** The sentence a banned user reads when they try to log in or use an old token. */
export function banMessage(ban: ActiveBan): string {
  const reason = ban.reason ? ` Reason: ${ban.reason}` : '';
  if (ban.permanent) return `Your account has been permanently banned.${reason}`;
  return `Your account is banned until ${ban.until}.${reason}`;
}
