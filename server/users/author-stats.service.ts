// An author's counters move with every article, visit, rating, comment and follow, and their
// mojo with them (docs/mojo.md). Other features call this inside the transaction of the write
// that moves them.
import type { DB } from '../db.ts';
import { addToAuthorStats, type AuthorStatsDelta } from './author-stats.repo.ts';

export type { AuthorStatsDelta };

/** Mojo follows in the same statement, by the one formula (mojo.formula.ts). */
export function adjustAuthorStats(trx: DB, userId: number, delta: AuthorStatsDelta): Promise<void> {
  return addToAuthorStats(trx, userId, delta);
}
