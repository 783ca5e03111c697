// An entry of the public moderation log (DESIGN.md, Moderation log): what was done, by which admin,
// to whom, why and when. Usernames only: no email, and nothing about who reported what.
import type { PublicEntryRow } from './moderation.repo.ts';

export type PublicModerationAction = 'delete_post' | 'delete_comment' | 'ban' | 'unban' | 'promote' | 'demote' | 'registration'
  | 'block' | 'unblock';

export interface ModerationEntry {
  id: number;
  action: PublicModerationAction;
  created_at: string;
  /** The acting admin's username; null when the operator acted at the admin CLI, or the account is gone. */
  admin: string | null;
  /** The account acted on: the removed content's author, or the user banned, unbanned, promoted or
   * demoted; null once that account is gone. */
  user: string | null;
  /** The removed article's title, or the title of the article a removed comment was on. */
  post_title: string | null;
  /** The article a removed comment was on, while readers can still open it. */
  post_id: number | null;
  /** Why, as the admin said; for `registration`, the mode chosen (open, approval, invite, closed). */
  reason: string | null;
  /** When a ban ends; null for a permanent ban and for every other act. */
  ban_until: string | null;
  /** The fediverse server or account blocked or unblocked (`example.org`, `@user@example.org`); null for every other act. */
  target: string | null;
}

export function toModerationEntry(row: PublicEntryRow): ModerationEntry {
  return {
    id: row.id,
    action: row.action as PublicModerationAction,
    created_at: row.created_at,
    admin: row.admin,
    user: row.user,
    post_title: row.post_title,
    post_id: row.live_post_id === null ? null : Number(row.live_post_id),
    reason: row.reason,
    ban_until: row.action === 'ban' ? row.ban_until : null,
    target: row.target,
  };
}
