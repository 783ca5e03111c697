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

export type AuthorStatsRow = Required<AuthorStatsDelta> & { userId: number };

/** Rows per statement: 8 parameters each stays far below either database's limit. */
const MANY_BATCH = 500;

/**
 * The same change as addToAuthorStats for many users at once, each by their own delta: one
 * UPDATE … FROM (VALUES …) per 500 users, on both databases (whose VALUES columns are both named
 * column1, column2, …). PostgreSQL types the parameters by the casts. One row per user: a user
 * given twice would be moved once.
 */
export async function addToManyAuthorStats(trx: DB, rows: AuthorStatsRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += MANY_BATCH) {
    const values = sql.join(rows.slice(at, at + MANY_BATCH).map((r) => sql`(${sql.join(
      [r.userId, r.posts, r.visits, r.ratingsCount, r.ratingsSum, r.comments, r.followers, r.following]
        .map((n) => sql`CAST(${n} AS integer)`))})`));
    await sql`UPDATE users SET
        posts_count = users.posts_count + d.column2,
        received_visits = users.received_visits + d.column3,
        received_ratings_count = users.received_ratings_count + d.column4,
        received_ratings_sum = users.received_ratings_sum + d.column5,
        received_comments_count = users.received_comments_count + d.column6,
        followers_count = users.followers_count + d.column7,
        following_count = users.following_count + d.column8,
        mojo = mojo_score(users.received_ratings_count + d.column4, users.received_ratings_sum + d.column5,
          users.received_comments_count + d.column6, users.received_visits + d.column3, users.followers_count + d.column7),
        received_average_rating = mean_rating(users.received_ratings_sum + d.column5, users.received_ratings_count + d.column4)
      FROM (VALUES ${values}) AS d
      WHERE users.id = d.column1`.execute(trx);
  }
}
