// The ranking refresh as SQLite runs it while the site writes (in a child process: see
// sqlite.ranks-refresh.ts). SQLite has one writer at a time, and a request's write waits for the
// refresh's transaction to end, holding the event loop meanwhile; so the refresh writes in short
// transactions, and readers must still never see half a refresh.
//
// Rewriting scores in place cannot do that cheaply: the scores are kept by post id (post_ranks)
// and by score (post_rank_order), and a batch in one order touches pages all over the other; at
// a million posts that meant 5 GB written and 18 s. Instead every score is written anew into two
// fresh tables, each in its own order, so each batch appends to the end of a B-tree, and the
// fresh tables then replace the live ones by renaming, in one short transaction. Readers see the
// old scores until that commit and the new ones after it.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import { highestPostId, ratingMeanNow, readForScores, recordRefresh, scorePostsInto, type Between } from '../ranks/ranks.service.ts';

const RANKS = 'post_ranks';
const ORDER = 'post_rank_order';
const next = (table: string) => `${table}_next`;
const old = (table: string) => `${table}_old`;

/** Post ids scored per transaction: about 3 ms each (14 at most) at a million posts here. */
const SCORE_IDS = 2_000;
/** Rows copied into the order per transaction: a plain copy, about 1 ms. */
const ORDER_ROWS = 5_000;
/** Old post_ranks rows deleted per transaction, about 5 ms; DROP TABLE would free them all at once (30–40 ms). */
const DROP_ROWS = 25_000;

export interface RebuildResult {
  posts: number;
  complete: boolean;
}

/**
 * Recomputes every active post's score at `now` into fresh tables and swaps them in. `between`
 * runs after every transaction and may stop the rebuild (false), which then leaves the scores as
 * they were. A post published meanwhile keeps the score it was published with; one deleted
 * meanwhile leaves its row in the new order until the next refresh (lists join posts, so it
 * shows nowhere). A draft published meanwhile is scored either way.
 */
export async function rebuildRanks(db: DB, between: Between, now = Date.now()): Promise<RebuildResult> {
  // Leftovers of a refresh cut short (a crash, a kill) go first.
  for (const table of [next(RANKS), next(ORDER), old(RANKS), old(ORDER)]) await dropTable(db, table);
  await db.transaction().execute(async (trx) => {
    for (const table of [RANKS, ORDER]) await createLike(trx, table, next(table));
  });
  const abandon = async (posts: number) => {
    for (const table of [next(RANKS), next(ORDER)]) await dropTable(db, table);
    return { posts, complete: false };
  };

  const highest = await highestPostId(db);
  // m for the whole period, measured as the scoring begins (a read: no lock held).
  const ratingMean = await ratingMeanNow(db);
  let posts = 0;
  for (let after = 0; after < highest; after += SCORE_IDS) {
    const ids = { after, upTo: Math.min(highest, after + SCORE_IDS) };
    // Posts' pages may have to come from the disk: read them before the transaction, not in it.
    await readForScores(db, ids);
    posts += await db.transaction().execute((trx) => scorePostsInto(trx, next(RANKS), now, ids));
    if (!await between()) return abandon(posts);
  }
  if (!await sortOrder(db, between)) return abandon(posts);

  await db.transaction().execute(async (trx) => {
    // Posts published since `highest` was read, scored as they were published.
    await sql`INSERT INTO ${sql.table(next(RANKS))} SELECT * FROM ${sql.table(RANKS)} WHERE post_id > ${highest}`.execute(trx);
    await sql`INSERT INTO ${sql.table(next(ORDER))} (score, post_id)
      SELECT score, post_id FROM ${sql.table(RANKS)} WHERE post_id > ${highest}`.execute(trx);
    // Drafts published since the refresh began (created_at is the publication time) have older
    // ids: those whose batch ran before they were published are scored as they were published
    // too. A few rows, found through posts_listed_created.
    const since = new Date(now).toISOString();
    await sql`INSERT OR IGNORE INTO ${sql.table(next(RANKS))}
      SELECT r.* FROM posts p JOIN ${sql.table(RANKS)} r ON r.post_id = p.id
      WHERE p.status = 'published' AND p.archived = 0 AND p.created_at >= ${since} AND p.id <= ${highest}`.execute(trx);
    await sql`INSERT OR IGNORE INTO ${sql.table(next(ORDER))} (score, post_id)
      SELECT r.score, r.post_id FROM posts p JOIN ${sql.table(next(RANKS))} r ON r.post_id = p.id
      WHERE p.status = 'published' AND p.archived = 0 AND p.created_at >= ${since} AND p.id <= ${highest}`.execute(trx);
    await recordRefresh(trx, now, ratingMean);
    for (const table of [RANKS, ORDER]) {
      await sql`ALTER TABLE ${sql.table(table)} RENAME TO ${sql.table(old(table))}`.execute(trx);
      await sql`ALTER TABLE ${sql.table(next(table))} RENAME TO ${sql.table(table)}`.execute(trx);
    }
  });
  for (let after = 0; after < highest; after += DROP_ROWS) {
    await db.transaction().execute((trx) => sql`DELETE FROM ${sql.table(old(RANKS))}
      WHERE post_id > ${after} AND post_id <= ${after + DROP_ROWS}`.execute(trx));
    await between(); // the new scores are in: only freeing the old pages is left, so no stopping
  }
  for (const table of [old(RANKS), old(ORDER)]) await dropTable(db, table);
  return { posts, complete: true };
}

/**
 * Copies the fresh scores into the fresh order in its key order: sorted off the lock, in this
 * connection's own temporary database, then appended in short transactions. False if stopped.
 */
async function sortOrder(db: DB, between: Between): Promise<boolean> {
  await sql`DROP TABLE IF EXISTS temp.rank_order`.execute(db);
  await sql`CREATE TEMP TABLE rank_order AS
    SELECT score, post_id FROM main.${sql.table(next(RANKS))} ORDER BY score, post_id`.execute(db);
  const sorted = Number((await sql<{ n: number | null }>`SELECT max(rowid) AS n FROM temp.rank_order`.execute(db)).rows[0]?.n ?? 0);
  for (let after = 0; after < sorted; after += ORDER_ROWS) {
    // Sorted lowest first: the Pulse's position (1 = highest score, then highest id) counts from the end.
    await db.transaction().execute((trx) => sql`INSERT INTO main.${sql.table(next(ORDER))} (score, post_id, position)
      SELECT score, post_id, ${sorted} - rowid + 1 FROM temp.rank_order WHERE rowid > ${after} AND rowid <= ${after + ORDER_ROWS}`.execute(trx));
    if (!await between()) return false;
  }
  await sql`DROP TABLE temp.rank_order`.execute(db);
  return true;
}

/**
 * Creates `copy` with the definition of `table` as the migrations left it (columns, keys, foreign
 * keys). Its indexes would not follow it, and none is expected: refuses rather than lose one.
 */
async function createLike(trx: DB, table: string, copy: string): Promise<void> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ${table}`.execute(trx);
  const indexes = rows.filter((row) => row.type === 'index' && row.sql !== null).map((row) => row.name);
  if (indexes.length > 0) throw new Error(`${table} has indexes (${indexes.join(', ')}) that a ranking refresh would drop`);
  const definition = rows.find((row) => row.type === 'table')?.sql;
  const named = new RegExp(`^CREATE TABLE\\s+(?:"${table}"|${table})\\s*\\(`, 'i');
  if (!definition || !named.test(definition)) throw new Error(`cannot read the definition of ${table}`);
  await sql.raw(definition.replace(named, `CREATE TABLE "${copy}" (`)).execute(trx);
}

async function dropTable(db: DB, table: string): Promise<void> {
  await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
}
