// SQL for the counters on a user row that follow from other tables, and the mojo derived from them.
import { sql } from 'kysely';
import type { DB } from '../db.ts';
import { preparedQuery } from '../prepared-query.ts';

export interface AuthorStatsDelta {
  posts?: number;
  visits?: number;
  ratingsCount?: number;
  ratingsSum?: number;
  comments?: number;
  followers?: number;
  following?: number;
}

/**
 * One statement: the counters move by the delta, and mojo and the average rating are computed
 * from the moved counters by mojo_score and mean_rating (mojo.formula.ts, registered by the
 * dialect). Every right-hand side reads the row as it was, hence `+ delta` inside them too.
 */
const addToStats = preparedQuery((db, p: Required<AuthorStatsDelta> & { userId: number }) =>
  db.updateTable('users').set({
    posts_count: sql`posts_count + ${p.posts}`,
    received_visits: sql`received_visits + ${p.visits}`,
    received_ratings_count: sql`received_ratings_count + ${p.ratingsCount}`,
    received_ratings_sum: sql`received_ratings_sum + ${p.ratingsSum}`,
    received_comments_count: sql`received_comments_count + ${p.comments}`,
    followers_count: sql`followers_count + ${p.followers}`,
    following_count: sql`following_count + ${p.following}`,
    mojo: sql`mojo_score(received_ratings_count + ${p.ratingsCount}, received_ratings_sum + ${p.ratingsSum},
      received_comments_count + ${p.comments}, received_visits + ${p.visits}, followers_count + ${p.followers})`,
    received_average_rating: sql`mean_rating(received_ratings_sum + ${p.ratingsSum}, received_ratings_count + ${p.ratingsCount})`,
  }).where('id', '=', p.userId));

export async function addToAuthorStats(trx: DB, userId: number, delta: AuthorStatsDelta): Promise<void> {
  await addToStats.changed(trx, {
    userId, posts: delta.posts ?? 0, visits: delta.visits ?? 0, ratingsCount: delta.ratingsCount ?? 0,
    ratingsSum: delta.ratingsSum ?? 0, comments: delta.comments ?? 0, followers: delta.followers ?? 0,
    following: delta.following ?? 0,
  });
}
