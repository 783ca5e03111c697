// SQL for ratings: one row per reader and post, and the counters they move on the post.
import { sql } from 'kysely';
import type { DB } from '../db.ts';
import { preparedQuery } from '../prepared-query.ts';

const upsert = preparedQuery((db, p: { postId: number; userId: number; rating: number; at: string }) =>
  db.insertInto('ratings')
    .values({ post_id: p.postId, user_id: p.userId, rating: p.rating, created_at: p.at, updated_at: p.at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doUpdateSet({
      rating: (eb) => eb.ref('excluded.rating'),
      updated_at: (eb) => eb.ref('excluded.updated_at'),
    })));

/** Stores the reader's rating, replacing theirs if they had one. */
export async function upsertRating(trx: DB, postId: number, userId: number, rating: number, at: string): Promise<void> {
  await upsert.changed(trx, { postId, userId, rating, at });
}

export interface PostRatings {
  ratings_count: number;
  ratings_sum: number;
  average_rating: number;
}

const addToPostRatings = preparedQuery((db, p: { postId: number; count: number; sum: number }) =>
  db.updateTable('posts').set({
    ratings_count: sql`ratings_count + ${p.count}`,
    ratings_sum: sql`ratings_sum + ${p.sum}`,
    average_rating: sql`CASE WHEN ratings_count + ${p.count} > 0
      THEN round((ratings_sum + ${p.sum}) * 1.0 / (ratings_count + ${p.count}), 2) ELSE 0 END`,
  }).where('id', '=', p.postId)
    .returning(['ratings_count', 'ratings_sum', 'average_rating']));

/** Moves the post's rating counters; returns them as stored now. */
export function adjustPostRatings(trx: DB, postId: number, countDelta: number, sumDelta: number): Promise<PostRatings | undefined> {
  return addToPostRatings.first(trx, { postId, count: countDelta, sum: sumDelta });
}
