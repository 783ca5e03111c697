// The counters on a user row that follow from other tables, and the mojo derived from them.
// Always called inside the transaction of the write that changes them.
import { sql } from 'kysely';
import type { DB } from '../db.ts';
import { averageRating, computeMojo } from '../mojo/mojo.formula.ts';

export interface AuthorStatsDelta {
  posts?: number;
  visits?: number;
  ratingsCount?: number;
  ratingsSum?: number;
  comments?: number;
  followers?: number;
  following?: number;
}

export async function adjustAuthorStats(trx: DB, userId: number, delta: AuthorStatsDelta): Promise<void> {
  const row = await trx.updateTable('users')
    .set({
      posts_count: sql`posts_count + ${delta.posts ?? 0}`,
      received_visits: sql`received_visits + ${delta.visits ?? 0}`,
      received_ratings_count: sql`received_ratings_count + ${delta.ratingsCount ?? 0}`,
      received_ratings_sum: sql`received_ratings_sum + ${delta.ratingsSum ?? 0}`,
      received_comments_count: sql`received_comments_count + ${delta.comments ?? 0}`,
      followers_count: sql`followers_count + ${delta.followers ?? 0}`,
      following_count: sql`following_count + ${delta.following ?? 0}`,
    })
    .where('id', '=', userId)
    .returning(['received_ratings_count', 'received_ratings_sum', 'received_comments_count',
      'received_visits', 'followers_count'])
    .executeTakeFirst();
  if (!row) return;
  await trx.updateTable('users')
    .set({
      mojo: computeMojo({
        ratingsCount: row.received_ratings_count,
        ratingsSum: row.received_ratings_sum,
        comments: row.received_comments_count,
        visits: row.received_visits,
        followers: row.followers_count,
      }),
      received_average_rating: averageRating(row.received_ratings_sum, row.received_ratings_count),
    })
    .where('id', '=', userId)
    .execute();
}
