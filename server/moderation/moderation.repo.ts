// SQL for the moderation log: every admin act, written in the act's own transaction; the public
// log reads every act but 'notify' through moderation_log_public, whose condition the query
// repeats as literal SQL (a bound value would keep SQLite from choosing that partial index).
import { sql } from 'kysely';
import { nowIso } from '../db.ts';
import type { DB } from '../schema.ts';
import type { Page } from '../http.ts';

/** `registration`: an admin changed who may join (its reason is the new mode). `block`, `unblock`:
 * a server or account of the fediverse, named by `target`. */
export type ModerationAction = 'promote' | 'demote' | 'ban' | 'unban' | 'notify' | 'delete_post' | 'delete_comment' | 'registration'
  | 'block' | 'unblock';

export interface NewModerationEntry {
  /** null when the operator acted through the admin CLI. */
  adminId: number | null;
  action: ModerationAction;
  targetUserId: number | null;
  reason?: string | null;
  /** The removed article; for a removed comment, the article it was on. */
  post?: { id: number; title: string };
  commentId?: number;
  /** A ban's end; null or absent for a permanent one. */
  banUntil?: string | null;
  /** What a block or unblock names: `example.org` or `@user@example.org`. */
  target?: string | null;
}

export async function insertModerationEntry(db: DB, entry: NewModerationEntry): Promise<void> {
  await db.insertInto('moderation_log').values({
    admin_id: entry.adminId,
    action: entry.action,
    target_user_id: entry.targetUserId,
    post_id: entry.post?.id ?? null,
    post_title: entry.post?.title ?? null,
    comment_id: entry.commentId ?? null,
    reason: entry.reason ?? null,
    ban_until: entry.banUntil ?? null,
    target: entry.target ?? null,
    created_at: nowIso(),
  }).execute();
}

const PUBLIC_ACTS = sql<boolean>`m.action <> 'notify'`;

export interface PublicEntryRow {
  id: number;
  action: string;
  created_at: string;
  admin: string | null;
  user: string | null;
  post_title: string | null;
  /** The article named, while it is active (a removed comment's; a removed article's is gone). */
  live_post_id: number | null;
  reason: string | null;
  ban_until: string | null;
  target: string | null;
}

/** Newest first, by usernames only: never an email, never who reported what. */
export function publicEntriesQuery(db: DB, page: Page) {
  return db.selectFrom('moderation_log as m')
    .leftJoin('users as admin', 'admin.id', 'm.admin_id')
    .leftJoin('users as target', 'target.id', 'm.target_user_id')
    .leftJoin('posts as p', 'p.id', 'm.post_id')
    .select(['m.id', 'm.action', 'm.created_at', 'admin.username as admin', 'target.username as user', 'm.post_title',
      'm.reason', 'm.ban_until', 'm.target'])
    .select(sql<number | null>`CASE WHEN p.archived = 0 THEN p.id END`.as('live_post_id'))
    .where(PUBLIC_ACTS)
    .orderBy('m.created_at', 'desc').orderBy('m.id', 'desc')
    .limit(page.limit).offset(page.skip);
}

export function listPublicEntries(db: DB, page: Page): Promise<PublicEntryRow[]> {
  return publicEntriesQuery(db, page).execute();
}

export async function countPublicEntries(db: DB): Promise<number> {
  const row = await db.selectFrom('moderation_log as m').select((eb) => eb.fn.countAll<number>().as('n'))
    .where(PUBLIC_ACTS).executeTakeFirstOrThrow();
  return Number(row.n);
}
