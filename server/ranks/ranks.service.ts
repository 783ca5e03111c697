// Stored rankings: every active post's score recomputed at start, every RANK_REFRESH_HOURS and
// from the CLI; a new post scored as it is published.
import type { DB } from '../schema.ts';
import { notFound } from '../errors.ts';
import {
  deleteAuthorRankOrder, deleteRankOrder, deleteVisitsBefore, findHighestPostId, findPlaceAbove, findPostRank, findRefresh, insertRank, insertScores,
  measureRatingMean, readScoreInputs, replaceRanks, saveRefresh, type IdRange,
} from './ranks.repo.ts';
import { rankParts, rankScore } from './ranks.score.ts';

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
  const posts = await db.transaction().execute(async (trx) => {
    const scored = await replaceRanks(trx, now);
    await saveRefresh(trx, new Date(now).toISOString(), await measureRatingMean(trx));
    return scored;
  });
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

/** m as of now: a refresh measures it once and keeps it for its whole period. */
export function ratingMeanNow(db: DB): Promise<number> {
  return measureRatingMean(db);
}

/** Records, in the refresh's last transaction, when it scored and the m it measured. */
export function recordRefresh(trx: DB, now: number, ratingMean: number): Promise<void> {
  return saveRefresh(trx, new Date(now).toISOString(), ratingMean);
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

/** GET /api/posts/{id}/rank (docs/ranking.md): a listed post's place and score, explained. */
export interface PostRank {
  position: number;
  score: number;
  parts: { visits: number; ratings: number; comments: number };
  age_hours: number;
  decay: number;
  refreshed_at: string;
  next_refresh_at: string;
}

/** When the rankings were last refreshed and when the next refresh is due (null before the first). */
export interface RefreshTimes {
  refreshed_at: string | null;
  next_refresh_at: string | null;
}

const nextRefresh = (at: string, periodHours: number) => new Date(Date.parse(at) + periodHours * 3_600_000).toISOString();

export async function refreshTimes(db: DB, periodHours: number): Promise<RefreshTimes> {
  const at = (await findRefresh(db))?.refreshed_at ?? null;
  return { refreshed_at: at, next_refresh_at: at === null ? null : nextRefresh(at, periodHours) };
}

export const NOT_RANKED = 'This article is not ranked on The Pulse';

/**
 * How long before the refresh's moment a post left unplaced by it may have been published: a
 * publication whose transaction began before the refresh and ended after it had read the posts.
 * Transactions last milliseconds; an hour costs a few more rows read.
 */
const UNPLACED_MARGIN_MS = 3_600_000;

/**
 * The post's rank: its score and parts as stored (by the last refresh, or as it was published
 * since), at its place in The Pulse's unfiltered order — the refresh's position plus the posts
 * published since that rank above it, or, for one published since, the nearest position above
 * plus those. 404 when it is not listed (unknown, a draft, archived, removed).
 */
export async function postRank(db: DB, postId: number, periodHours: number): Promise<PostRank> {
  const row = await findPostRank(db, postId);
  if (!row || row.visits === null || row.ratings_count === null
    || row.ratings_sum === null || row.comments_count === null) throw notFound(NOT_RANKED);
  const since = row.refreshed_at === null ? '' : new Date(Date.parse(row.refreshed_at) - UNPLACED_MARGIN_MS).toISOString();
  const above = await findPlaceAbove(db, { score: row.score, postId, since });
  const parts = rankParts({
    visits: row.visits, ratingsCount: row.ratings_count, ratingsSum: row.ratings_sum, comments: row.comments_count,
    createdAt: row.created_at,
  }, Date.parse(row.computed_at));
  const refreshedAt = row.refreshed_at ?? row.computed_at;
  return {
    position: (row.position === null ? above.placed + 1 : Number(row.position)) + above.arrivals,
    score: row.score,
    parts: { visits: parts.visits, ratings: parts.ratings, comments: parts.comments },
    age_hours: parts.ageHours,
    decay: parts.decay,
    refreshed_at: refreshedAt,
    next_refresh_at: nextRefresh(refreshedAt, periodHours),
  };
}
