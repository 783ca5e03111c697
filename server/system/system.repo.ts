// SQL for the health check and the operator's counts.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/** One round-trip to the database; throws when it is unusable. */
export async function pingDatabase(db: DB): Promise<void> {
  await sql`SELECT 1`.execute(db);
}

export interface CommunityCounts {
  users: number;
  admins: number;
  bannedUsers: number;
  articles: number;
  archivedArticles: number;
  draftArticles: number;
  ratings: number;
  comments: number;
  follows: number;
  notifications: number;
}

/** Every count `admin stats` shows, in one query. */
export async function countCommunity(db: DB, now: string): Promise<CommunityCounts> {
  const count = (table: 'users' | 'posts' | 'ratings' | 'comments' | 'follows' | 'notifications') =>
    db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  const row = await db.selectNoFrom((eb) => [
    count('users').as('users'),
    count('users').where('level', '=', 'admin').as('admins'),
    count('users').where('banned_at', 'is not', null)
      .where((w) => w.or([w('ban_permanent', '=', 1), w('ban_until', '>', now)])).as('bannedUsers'),
    count('posts').where('status', '=', 'published').where('archived', '=', 0).as('articles'),
    count('posts').where('status', '=', 'published').where('archived', '=', 1).as('archivedArticles'),
    count('posts').where('status', '=', 'draft').as('draftArticles'),
    count('ratings').as('ratings'),
    count('comments').as('comments'),
    count('follows').as('follows'),
    count('notifications').as('notifications'),
  ]).executeTakeFirstOrThrow();
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as unknown as CommunityCounts;
}
