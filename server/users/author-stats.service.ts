// An author's counters move with every article, visit, rating, comment and follow, and their
// mojo with them. Other features call this inside the transaction of the write that moves them.
import type { DB } from '../db.ts';
import { averageRating, computeMojo } from '../mojo/mojo.formula.ts';
import { addToAuthorCounters, updateMojo, type AuthorStatsDelta } from './author-stats.repo.ts';

export type { AuthorStatsDelta };

export async function adjustAuthorStats(trx: DB, userId: number, delta: AuthorStatsDelta): Promise<void> {
  const counts = await addToAuthorCounters(trx, userId, delta);
  if (!counts) return;
  const mojo = computeMojo({
    ratingsCount: counts.received_ratings_count,
    ratingsSum: counts.received_ratings_sum,
    comments: counts.received_comments_count,
    visits: counts.received_visits,
    followers: counts.followers_count,
  });
  await updateMojo(trx, userId, mojo, averageRating(counts.received_ratings_sum, counts.received_ratings_count));
}
