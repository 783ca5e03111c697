// Settings → Email's columns on users, and the acts each user's next notification mail tells of
// (migrations/0017_mail_accounts.ts).
import { sql, type ExpressionBuilder, type Insertable, type Selectable } from 'kysely';
import type { Database, DB, DigestChoice, MailItemsTable } from '../schema.ts';

export interface PreferenceColumns {
  mail_comments: number;
  mail_followers: number;
  mail_mentions: number;
  mail_digest: DigestChoice;
}

export function findPreferences(db: DB, userId: number): Promise<PreferenceColumns | undefined> {
  return db.selectFrom('users').select(['mail_comments', 'mail_followers', 'mail_mentions', 'mail_digest'])
    .where('id', '=', userId).executeTakeFirst();
}

export async function updatePreferences(db: DB, userId: number, changes: Partial<PreferenceColumns>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

// ---- The notification mail's batch (server/mail-notices/mail-notices.batch.ts) ----------------

export type ChoiceColumn = 'mail_comments' | 'mail_followers' | 'mail_mentions';

/** Not banned at `now`, as users/users.bans.ts reads a ban. */
function notBanned(eb: ExpressionBuilder<Database, 'users'>, now: string) {
  return eb.or([
    eb('banned_at', 'is', null),
    eb.and([eb('ban_permanent', '=', 0), eb.or([eb('ban_until', 'is', null), eb('ban_until', '<=', now)])]),
  ]);
}

/**
 * Counts one more act toward the user's next notification mail, when they want mail of this kind,
 * their address is verified and they are not banned; undefined when they are not to be mailed.
 * Always a write of the user's row: it holds the row until the act commits, so the batch's job,
 * which takes the count back to 0 first, waits for the act and then sees its item.
 */
export function countMailItem(trx: DB, userId: number, choice: ChoiceColumn, now: string) {
  return trx.updateTable('users').set({ mail_pending: sql`mail_pending + 1` })
    .where('id', '=', userId).where(choice, '=', 1).where('email_verified', '=', 1)
    .where((eb) => notBanned(eb, now))
    .returning(['mail_pending', 'mail_last_at'])
    .executeTakeFirst();
}

export async function insertMailItem(trx: DB, item: Insertable<MailItemsTable>): Promise<void> {
  await trx.insertInto('mail_items').values(item).execute();
}

/** The user as the batch sees them, their count taken back to 0 (see countMailItem). */
export function restartMailCount(trx: DB, userId: number) {
  return trx.updateTable('users').set({ mail_pending: 0 }).where('id', '=', userId)
    .returning(['id', 'username', 'email', 'email_verified', 'mail_comments', 'mail_followers', 'mail_mentions',
      'banned_at', 'ban_permanent', 'ban_until', 'ban_reason'])
    .executeTakeFirst();
}

export async function recordMailSent(trx: DB, userId: number, at: string): Promise<void> {
  await trx.updateTable('users').set({ mail_last_at: at }).where('id', '=', userId).execute();
}

/** Takes (deletes) every item waiting for the user, oldest first. */
export async function takeMailItems(trx: DB, userId: number): Promise<Selectable<MailItemsTable>[]> {
  const rows = await trx.deleteFrom('mail_items').where('user_id', '=', userId).returningAll().execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** Of these users, the ones there and not banned at `now`, by id. */
export async function activeUsernames(trx: DB, ids: readonly number[], now: string): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('users').select(['id', 'username']).where('id', 'in', ids)
    .where((eb) => notBanned(eb, now)).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}

/** Of these users, the ones `userId` muted. */
export async function mutedAmong(trx: DB, userId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await trx.selectFrom('user_mutes').select('muted_user_id').where('user_id', '=', userId)
    .where('muted_user_id', 'in', ids).execute();
  return new Set(rows.map((row) => row.muted_user_id));
}

/** Of these followers, the ones still following `userId`. */
export async function stillFollowing(trx: DB, userId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await trx.selectFrom('follows').select('follower_id').where('followee_id', '=', userId)
    .where('follower_id', 'in', ids).execute();
  return new Set(rows.map((row) => row.follower_id));
}

/** These comments, where they still are, with their article's title. */
export function commentsWithTitles(trx: DB, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx.selectFrom('comments').innerJoin('posts', 'posts.id', 'comments.post_id')
    .select(['comments.id', 'comments.content_html', 'posts.id as post_id', 'posts.title'])
    .where('comments.id', 'in', ids).where('posts.status', '=', 'published').execute();
}

/** These articles, where they are still published. */
export function publishedTitles(trx: DB, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx.selectFrom('posts').select(['id', 'title']).where('id', 'in', ids).where('status', '=', 'published').execute();
}
