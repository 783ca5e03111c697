// Transparency (DESIGN.md, "the scores explain themselves"): what a ranking refresh fixes for
// its whole period, so that the numbers shown and the orders they give agree.
// - rank_refresh, one row: when the rankings were last refreshed and the site-wide mean rating m
//   measured then. Every post's bayesian_rating, (5·m + sum) / (5 + n), reads m here (one read by
//   the primary key per statement), so a fresh rating moves its post's own numbers at once while
//   m moves only at a refresh.
// - post_ranks keeps, beside each score, what it was computed from (visits, ratings, comments):
//   GET /api/posts/{id}/rank gives the score's parts without recomputing anything.
// - post_rank_order keeps each post's position in The Pulse as of the refresh (1 = top), written
//   as the refresh writes the order; a post scored at publication has none until the next one.
// The row is written by the first refresh (the server runs one at start; until then m reads as
// 3), so a freshly migrated database stays empty for migrate-to-postgres, which copies the row.
// New columns are nullable: rows written before this migration explain nothing until the next
// refresh (the server runs one at start). The same SQL on both databases.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

async function run(db: Kysely<any>, statements: string[]): Promise<void> {
  const apply = async (trx: Kysely<any>) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
  };
  if (db.getExecutor().adapter instanceof SqliteAdapter) await db.transaction().execute(apply);
  else await apply(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, [
    `CREATE TABLE rank_refresh (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      refreshed_at TEXT,                      -- the moment the last refresh scored every article
      rating_mean DOUBLE PRECISION NOT NULL   -- m: mean of every rating then, 3 with none
    )`,
    `ALTER TABLE post_ranks ADD COLUMN visits INTEGER`,
    `ALTER TABLE post_ranks ADD COLUMN ratings_count INTEGER`,
    `ALTER TABLE post_ranks ADD COLUMN ratings_sum INTEGER`,
    `ALTER TABLE post_ranks ADD COLUMN comments_count INTEGER`,
    `ALTER TABLE post_rank_order ADD COLUMN position INTEGER`,
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, [
    `ALTER TABLE post_rank_order DROP COLUMN position`,
    `ALTER TABLE post_ranks DROP COLUMN comments_count`,
    `ALTER TABLE post_ranks DROP COLUMN ratings_sum`,
    `ALTER TABLE post_ranks DROP COLUMN ratings_count`,
    `ALTER TABLE post_ranks DROP COLUMN visits`,
    `DROP TABLE rank_refresh`,
  ]);
}
