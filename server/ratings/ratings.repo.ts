// SQL for ratings: one row per reader and post, and the counters they move on the post.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
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

/** Per author of a listed article (published, active), how many of the user's ratings it holds and their sum. */
export async function sumRatingsByUserPerAuthor(trx: DB, userId: number): Promise<Array<{ author_id: number; n: number; total: number }>> {
  const rows = await trx.selectFrom('ratings').innerJoin('posts', 'posts.id', 'ratings.post_id')
    .select((eb) => ['posts.author_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('ratings.rating').as('total')])
    .where('ratings.user_id', '=', userId).where('posts.archived', '=', 0).where('posts.status', '=', 'published')
    .groupBy('posts.author_id').execute();
  // PostgreSQL's count and sum are bigint, read as text.
  return rows.map((row) => ({ author_id: row.author_id, n: Number(row.n), total: Number(row.total) }));
}

/** Takes the user's ratings out of the rated articles' counters, in one statement. */
export async function subtractRatingsByUser(trx: DB, userId: number): Promise<void> {
  await trx.updateTable('posts').from('ratings').set({
    ratings_count: sql`posts.ratings_count - 1`,
    ratings_sum: sql`posts.ratings_sum - ratings.rating`,
    average_rating: sql`CASE WHEN posts.ratings_count > 1
      THEN round((posts.ratings_sum - ratings.rating) * 1.0 / (posts.ratings_count - 1), 2) ELSE 0 END`,
  }).whereRef('ratings.post_id', '=', 'posts.id').where('ratings.user_id', '=', userId).execute();
}

export async function deleteRatingsByUser(trx: DB, userId: number): Promise<void> {
  await trx.deleteFrom('ratings').where('user_id', '=', userId).execute();
}

/** Every rating the user gave, newest first, with the article's title (their data export). */
export function listRatingsByUser(db: DB, userId: number) {
  return db.selectFrom('ratings').innerJoin('posts', 'posts.id', 'ratings.post_id')
    .select(['ratings.post_id', 'posts.title as post_title', 'ratings.rating', 'ratings.created_at', 'ratings.updated_at'])
    .where('ratings.user_id', '=', userId)
    .orderBy('ratings.updated_at', 'desc').orderBy('ratings.post_id', 'desc').execute();
}
