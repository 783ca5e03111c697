// Whether a user is banned right now. Temporary bans end by themselves when ban_until passes.
// The sentence a banned user reads is shared with the client, which reads it back (shared/bans.ts).
import type { BanFacts } from '../../shared/bans.ts';
import type { UserRow } from '../schema.ts';

export { banMessage } from '../../shared/bans.ts';

export type ActiveBan = BanFacts;

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
