// Recomputes every active post's score into post_ranks in one transaction. Runs at start, every
// RANK_REFRESH_HOURS, and from the CLI. Raw prepared statements: 100k rows in well under a second.
import type SQLite from 'better-sqlite3';
import { rankScore } from './ranks.score.ts';

interface RankRow {
  id: number;
  visits: number;
  ratings_count: number;
  ratings_sum: number;
  comments_count: number;
  created_at: string;
}

export interface RefreshResult {
  posts: number;
  ms: number;
}

export function recomputeRanks(sqlite: SQLite.Database, now = Date.now()): RefreshResult {
  const started = performance.now();
  const computedAt = new Date(now).toISOString();
  const rows = sqlite.prepare(`SELECT id, visits, ratings_count, ratings_sum, comments_count, created_at
    FROM posts WHERE archived = 0`).all() as RankRow[];
  const insert = sqlite.prepare('INSERT INTO post_ranks (post_id, score, computed_at) VALUES (?, ?, ?)');
  sqlite.transaction(() => {
    sqlite.prepare('DELETE FROM post_ranks').run();
    for (const row of rows) {
      insert.run(row.id, rankScore({
        visits: row.visits, ratingsCount: row.ratings_count, ratingsSum: row.ratings_sum,
        comments: row.comments_count, createdAt: row.created_at,
      }, now), computedAt);
    }
  })();
  return { posts: rows.length, ms: Math.round(performance.now() - started) };
}

/** Also prunes visit records too old to matter for de-duplication (30 minutes). */
export function pruneVisitLog(sqlite: SQLite.Database, now = Date.now()): number {
  const cutoff = new Date(now - 30 * 60_000).toISOString();
  return sqlite.prepare('DELETE FROM post_visits WHERE last_counted_at < ?').run(cutoff).changes;
}
