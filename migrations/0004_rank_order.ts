// The Pulse's order gets a table of its own, (score, post_id), walked from the top, in place of
// the index post_ranks_score. A table and its index are kept in two orders, so rewriting every
// score in short transactions, as the ranking refresh must while the site writes, touched a page
// of one or the other for nearly every post: at a million posts 5 GB written and 18 s a refresh.
// Two tables can each be rebuilt in their own order and swapped in at once
// (server/sqlite/sqlite.ranks-rebuild.ts); post_ranks keeps each post's score by its id.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // SQLite then keeps the rows themselves in key order, one B-tree; PostgreSQL's primary key
  // index does the same there.
  const layout = db.getExecutor().adapter instanceof SqliteAdapter ? sql` WITHOUT ROWID` : sql``;
  await sql`CREATE TABLE post_rank_order (
    score DOUBLE PRECISION NOT NULL,
    post_id INTEGER NOT NULL,
    PRIMARY KEY (score, post_id)
  )${layout}`.execute(db);
  await sql`INSERT INTO post_rank_order (score, post_id) SELECT score, post_id FROM post_ranks`.execute(db);
  await sql`DROP INDEX post_ranks_score`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX post_ranks_score ON post_ranks(score, post_id)`.execute(db);
  await sql`DROP TABLE post_rank_order`.execute(db);
}
