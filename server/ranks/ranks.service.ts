// Stored rankings: every active post's score recomputed in one transaction at start, every
// RANK_REFRESH_HOURS and from the CLI; a new post scored as it is published.
import type { DB } from '../db.ts';
import { deleteVisitsBefore, insertRank, replaceRanks } from './ranks.repo.ts';
import { rankScore } from './ranks.score.ts';

export interface RefreshResult {
  posts: number;
  ms: number;
}

export async function recomputeRanks(db: DB, now = Date.now()): Promise<RefreshResult> {
  const started = performance.now();
  const posts = await db.transaction().execute((trx) => replaceRanks(trx, now));
  return { posts, ms: Math.round(performance.now() - started) };
}

/** Also prunes visit records too old to matter for de-duplication (30 minutes). */
export function pruneVisitLog(db: DB, now = Date.now()): Promise<number> {
  return deleteVisitsBefore(db, new Date(now - 30 * 60_000).toISOString());
}

/** A new post ranks at once; the periodic refresh recomputes everyone later. */
export function rankNewPost(trx: DB, postId: number, createdAt: string): Promise<void> {
  const score = rankScore({ visits: 0, ratingsCount: 0, ratingsSum: 0, comments: 0, createdAt }, Date.now());
  return insertRank(trx, postId, score, createdAt);
}
