// SQL for the counters on a user row that follow from other tables, and the mojo derived from them.
import { sql } from 'kysely';
import type { DB } from '../db.ts';

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

/** Adds the delta to the user's counters; returns what mojo is computed from, as stored now. */
export function addToAuthorCounters(trx: DB, userId: number, delta: AuthorStatsDelta): Promise<MojoInputs | undefined> {
  return trx.updateTable('users').set({
    posts_count: sql`posts_count + ${delta.posts ?? 0}`,
    received_visits: sql`received_visits + ${delta.visits ?? 0}`,
    received_ratings_count: sql`received_ratings_count + ${delta.ratingsCount ?? 0}`,
    received_ratings_sum: sql`received_ratings_sum + ${delta.ratingsSum ?? 0}`,
    received_comments_count: sql`received_comments_count + ${delta.comments ?? 0}`,
    followers_count: sql`followers_count + ${delta.followers ?? 0}`,
    following_count: sql`following_count + ${delta.following ?? 0}`,
  }).where('id', '=', userId)
    .returning(['received_ratings_count', 'received_ratings_sum', 'received_comments_count', 'received_visits', 'followers_count'])
    .executeTakeFirst();
}

export async function updateMojo(trx: DB, userId: number, mojo: number, averageRating: number): Promise<void> {
  await trx.updateTable('users').set({ mojo, received_average_rating: averageRating }).where('id', '=', userId).execute();
}
