// The weekly digest's reads (DESIGN.md, Mail): who gets it, and what their followed authors wrote.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/** Readers who chose the digest, verified and not banned at `now`, after id `afterId`, by id (users_weekly_digest). */
export async function digestReaderIds(db: DB, now: string, afterId: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id')
    // A literal, not a parameter: SQLite uses a partial index only for a WHERE it can read as its own.
    .where('mail_digest', '=', sql.lit('weekly')).where('id', '>', afterId).where('email_verified', '=', 1)
    .where((eb) => eb.or([
      eb('banned_at', 'is', null),
      eb.and([eb('ban_permanent', '=', 0), eb.or([eb('ban_until', 'is', null), eb('ban_until', '<=', now)])]),
    ]))
    .orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

/**
 * The newest published articles since `since` by authors `readerId` follows and has not muted,
 * newest first: one walk of posts_author_listed per followed author.
 */
export function followedAuthorsArticles(db: DB, readerId: number, since: string, limit: number) {
  return db.selectFrom('follows')
    .innerJoin('posts', 'posts.author_id', 'follows.followee_id')
    .innerJoin('users', 'users.id', 'posts.author_id')
    .select(['posts.id', 'posts.title', 'posts.content_html', 'posts.created_at', 'users.username as author_username'])
    .where('follows.follower_id', '=', readerId)
    .where('posts.status', '=', 'published').where('posts.archived', '=', 0).where('posts.created_at', '>=', since)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('user_mutes').select('user_mutes.user_id')
      .where('user_mutes.user_id', '=', readerId).whereRef('user_mutes.muted_user_id', '=', 'follows.followee_id'))))
    .orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc')
    .limit(limit)
    .execute();
}
