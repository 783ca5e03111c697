// SQL for ratings: one row per reader and post, and the counters they move on the post.
import { sql } from 'kysely';
import type { DB } from '../db.ts';

/** The reader's rating of the post, 0 when none. */
export async function findUserRating(db: DB, postId: number, userId: number): Promise<number> {
  const row = await db.selectFrom('ratings').select('rating')
    .where('post_id', '=', postId).where('user_id', '=', userId).executeTakeFirst();
  return row?.rating ?? 0;
}

/** Stores the reader's rating, replacing theirs if they had one. */
export async function upsertRating(trx: DB, postId: number, userId: number, rating: number, at: string): Promise<void> {
  await trx.insertInto('ratings')
    .values({ post_id: postId, user_id: userId, rating, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doUpdateSet({
      rating: (eb) => eb.ref('excluded.rating'),
      updated_at: (eb) => eb.ref('excluded.updated_at'),
    }))
    .execute();
}

export interface PostRatings {
  ratings_count: number;
  ratings_sum: number;
  average_rating: number;
}

/** Moves the post's rating counters; returns them as stored now. */
export function adjustPostRatings(trx: DB, postId: number, countDelta: number, sumDelta: number): Promise<PostRatings | undefined> {
  return trx.updateTable('posts').set({
    ratings_count: sql`ratings_count + ${countDelta}`,
    ratings_sum: sql`ratings_sum + ${sumDelta}`,
    average_rating: sql`CASE WHEN ratings_count + ${countDelta} > 0
      THEN round((ratings_sum + ${sumDelta}) * 1.0 / (ratings_count + ${countDelta}), 2) ELSE 0 END`,
  }).where('id', '=', postId)
    .returning(['ratings_count', 'ratings_sum', 'average_rating'])
    .executeTakeFirst();
}
