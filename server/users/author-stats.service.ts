// An author's counters move with every article, visit, rating, comment and follow, and their
// mojo with them (docs/mojo.md). Other features call this inside the transaction of the write
// that moves them, saying why: every change of mojo is written to the ledger with its cause.
import type { DB } from '../schema.ts';
import {
  addToAuthorStats, addToManyAuthorStats, type AuthorStatsDelta, type AuthorStatsRow, type MojoReason,
} from './author-stats.repo.ts';

export type { AuthorStatsDelta, MojoReason };

/** One user's share of a change that moves many users' counters at once. */
export type AuthorStatsChange = AuthorStatsDelta & { userId: number };

/**
 * Mojo follows in the same statement, by the one formula (mojo.formula.ts), and the ledger's
 * event in the same transaction. `reason` is required whenever the delta moves mojo's inputs.
 */
export function adjustAuthorStats(trx: DB, userId: number, delta: AuthorStatsDelta, reason?: MojoReason): Promise<void> {
  return addToAuthorStats(trx, userId, delta, reason);
}

/**
 * Many users' counters at once (an account's removal takes back its ratings, comments and
 * follows from everyone they touched): the changes of each user are added up, and applied in a
 * few statements rather than one per user, each user's ledger event with the one `reason`.
 */
export async function adjustManyAuthorStats(
  trx: DB, changes: readonly AuthorStatsChange[], reason: Omit<MojoReason, 'postId'>,
): Promise<void> {
  const byUser = new Map<number, AuthorStatsRow>();
  for (const { userId, ...delta } of changes) {
    const row = byUser.get(userId) ?? {
      userId, posts: 0, visits: 0, ratingsCount: 0, ratingsSum: 0, comments: 0, followers: 0, following: 0,
    };
    for (const key of Object.keys(delta) as (keyof AuthorStatsDelta)[]) row[key] += delta[key] ?? 0;
    byUser.set(userId, row);
  }
  // In id order, the order every write that moves two users' rows takes them: on PostgreSQL the
  // update then locks them in that order too (its plan walks the list), not against another's.
  await addToManyAuthorStats(trx, [...byUser.values()].sort((a, b) => a.userId - b.userId), reason);
}
