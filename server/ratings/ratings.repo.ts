// SQL for ratings: one row per reader and post.
import { sql } from 'kysely';
import type { DB } from '../db.ts';

/** Stores the reader's rating; returns the rating it replaced, if any. */
export async function upsertRating(trx: DB, postId: number, userId: number, rating: number, at: string): Promise<number | undefined> {
  const previous = await trx.selectFrom('ratings').select('rating')
    .where('post_id', '=', postId).where('user_id', '=', userId).executeTakeFirst();
  await trx.insertInto('ratings')
    .values({ post_id: postId, user_id: userId, rating, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doUpdateSet({ rating, updated_at: at }))
    .execute();
  return previous?.rating;
}

export async function adjustPostRatings(trx: DB, postId: number, countDelta: number, sumDelta: number): Promise<void> {
  await trx.updateTable('posts').set({
    ratings_count: sql`ratings_count + ${countDelta}`,
    ratings_sum: sql`ratings_sum + ${sumDelta}`,
    average_rating: sql`CASE WHEN ratings_count + ${countDelta} > 0
      THEN round((ratings_sum + ${sumDelta}) * 1.0 / (ratings_count + ${countDelta}), 2) ELSE 0 END`,
  }).where('id', '=', postId).execute();
}
