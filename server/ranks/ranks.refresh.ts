// Recomputes every active post's score into post_ranks in one transaction. Runs at start, every
// RANK_REFRESH_HOURS, and from the CLI.
import type SQLite from 'better-sqlite3';
import { rankScore } from './ranks.score.ts';

export interface RefreshResult {
  posts: number;
  ms: number;
}

/** rank_score(visits, ratings_count, ratings_sum, comments_count, created_at, now) for SQL. */
function registerScoreFunction(sqlite: SQLite.Database): void {
  sqlite.function('rank_score', { deterministic: true },
    (visits, ratingsCount, ratingsSum, comments, createdAt, now) => rankScore({
      visits: Number(visits), ratingsCount: Number(ratingsCount), ratingsSum: Number(ratingsSum),
      comments: Number(comments), createdAt: String(createdAt),
    }, Number(now)));
}

/**
 * One INSERT … SELECT computes every score row by row inside SQLite: no array of 100k posts in
 * the JavaScript heap, which would stay in the server's memory after the start-up refresh.
 */
export function recomputeRanks(sqlite: SQLite.Database, now = Date.now()): RefreshResult {
  const started = performance.now();
  registerScoreFunction(sqlite);
  const computedAt = new Date(now).toISOString();
  const posts = sqlite.transaction(() => {
    sqlite.prepare('DELETE FROM post_ranks').run();
    return sqlite.prepare(`INSERT INTO post_ranks (post_id, score, computed_at)
      SELECT id, rank_score(visits, ratings_count, ratings_sum, comments_count, created_at, ?), ?
      FROM posts WHERE archived = 0`).run(now, computedAt).changes;
  })();
  return { posts, ms: Math.round(performance.now() - started) };
}

/** Also prunes visit records too old to matter for de-duplication (30 minutes). */
export function pruneVisitLog(sqlite: SQLite.Database, now = Date.now()): number {
  const cutoff = new Date(now - 30 * 60_000).toISOString();
  return sqlite.prepare('DELETE FROM post_visits WHERE last_counted_at < ?').run(cutoff).changes;
}
