// Stored rankings: every active post's score recomputed at start, every RANK_REFRESH_HOURS and
// from the CLI; a new post scored as it is published.
import type { DB } from '../db.ts';
import {
  deleteAuthorRankOrder, deleteRankOrder, deleteVisitsBefore, findHighestPostId, insertRank, insertScores, readScoreInputs, replaceRanks,
  type IdRange,
} from './ranks.repo.ts';
import { rankScore } from './ranks.score.ts';

export interface RefreshResult {
  posts: number;
  ms: number;
}

/** What the periodic refresh reports. */
export interface RefreshSummary extends RefreshResult {
  pruned_visits: number;
  /** False when it was stopped for shutdown: the previous scores then stay. */
  complete: boolean;
}

/** Says, between two short transactions, whether to go on (false: stop there, at shutdown). */
export type Between = () => boolean | Promise<boolean>;

/**
 * Every score in one transaction: simplest, and the quickest when nothing else writes (the
 * seeder, the CLI). While the site runs on SQLite, the refresh is sqlite/sqlite.ranks-rebuild.ts.
 */
export async function recomputeRanks(db: DB, now = Date.now()): Promise<RefreshResult> {
  const started = performance.now();
  const posts = await db.transaction().execute((trx) => replaceRanks(trx, now));
  return { posts, ms: Math.round(performance.now() - started) };
}

/** Reads what scoring the posts of `ids` reads, writing nothing (see scorePostsInto). */
export function readForScores(db: DB, ids: IdRange): Promise<void> {
  return readScoreInputs(db, ids);
}

/** Scores the active posts of `ids` at `now` into `table`, a table made like post_ranks. */
export function scorePostsInto(trx: DB, table: string, now: number, ids: IdRange): Promise<number> {
  return insertScores(trx, table, now, ids);
}

/** The largest post id so far: a refresh scores the posts up to it. */
export function highestPostId(db: DB): Promise<number> {
  return findHighestPostId(db);
}

/** Visit records a prune forgets per transaction. */
const PRUNE_BATCH = 5_000;

/** Forgets visit records too old to matter for de-duplication (30 minutes), a batch at a time. */
export async function pruneVisitLog(db: DB, between: Between = () => true, now = Date.now()): Promise<{ pruned: number; complete: boolean }> {
  const cutoff = new Date(now - 30 * 60_000).toISOString();
  let pruned = 0;
  for (;;) {
    const deleted = await deleteVisitsBefore(db, cutoff, PRUNE_BATCH);
    pruned += deleted;
    if (deleted < PRUNE_BATCH) return { pruned, complete: true };
    if (!await between()) return { pruned, complete: false };
  }
}

/** A new post ranks at once; the periodic refresh recomputes everyone later. */
export function rankNewPost(trx: DB, postId: number, createdAt: string): Promise<void> {
  const score = rankScore({ visits: 0, ratingsCount: 0, ratingsSum: 0, comments: 0, createdAt }, Date.now());
  return insertRank(trx, postId, score, createdAt);
}

/** Before a post is deleted: takes it out of the ranking's order. */
export function unrankPost(trx: DB, postId: number): Promise<void> {
  return deleteRankOrder(trx, postId);
}

/** Before an author's posts are deleted together: takes them all out of the ranking's order. */
export function unrankAuthorPosts(trx: DB, authorId: number): Promise<void> {
  return deleteAuthorRankOrder(trx, authorId);
}
