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

export interface MojoInputs {
  received_ratings_count: number;
  received_ratings_sum: number;
  received_comments_count: number;
  received_visits: number;
  followers_count: number;
}

const addToCounters = preparedQuery((db, p: Required<AuthorStatsDelta> & { userId: number }) =>
  db.updateTable('users').set({
    posts_count: sql`posts_count + ${p.posts}`,
    received_visits: sql`received_visits + ${p.visits}`,
    received_ratings_count: sql`received_ratings_count + ${p.ratingsCount}`,
    received_ratings_sum: sql`received_ratings_sum + ${p.ratingsSum}`,
    received_comments_count: sql`received_comments_count + ${p.comments}`,
    followers_count: sql`followers_count + ${p.followers}`,
    following_count: sql`following_count + ${p.following}`,
  }).where('id', '=', p.userId)
    .returning(['received_ratings_count', 'received_ratings_sum', 'received_comments_count', 'received_visits', 'followers_count']));

/** Adds the delta to the user's counters; returns what mojo is computed from, as stored now. */
export function addToAuthorCounters(trx: DB, userId: number, delta: AuthorStatsDelta): Promise<MojoInputs | undefined> {
  return addToCounters.first(trx, {
    userId, posts: delta.posts ?? 0, visits: delta.visits ?? 0, ratingsCount: delta.ratingsCount ?? 0,
    ratingsSum: delta.ratingsSum ?? 0, comments: delta.comments ?? 0, followers: delta.followers ?? 0,
    following: delta.following ?? 0,
  });
}

const setMojo = preparedQuery((db, p: { userId: number; mojo: number; averageRating: number }) =>
  db.updateTable('users').set({ mojo: p.mojo, received_average_rating: p.averageRating }).where('id', '=', p.userId));

export async function updateMojo(trx: DB, userId: number, mojo: number, averageRating: number): Promise<void> {
  await setMojo.changed(trx, { userId, mojo, averageRating });
}
