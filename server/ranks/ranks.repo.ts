// SQL for stored rankings (each post's score in post_ranks, the same scores in their order in
// post_rank_order) and the visit log they prune.
import { sql } from 'kysely';
import type { DB } from '../db.ts';

/** The score rule as SQL: rank_score is registered by the dialect (the very same TypeScript rule). */
const scoreAt = (now: number) =>
  sql<number>`rank_score(visits, ratings_count, ratings_sum, comments_count, created_at, ${now})`;

/** Posts with after < id <= upTo. */
export interface IdRange {
  after: number;
  upTo: number;
}

/**
 * Reads every column scoring `ids` reads, and writes nothing: the pages it needs are then in
 * memory when the scores are written.
 */
export async function readScoreInputs(db: DB, ids: IdRange): Promise<void> {
  await db.selectFrom('posts')
    .select(sql<number>`max(visits + ratings_count + ratings_sum + comments_count + length(created_at) + archived)`.as('n'))
    .where('id', '>', ids.after).where('id', '<=', ids.upTo)
    .execute();
}

/**
 * Scores every listed post (published, not archived) of `ids` into `table`, a table made like post_ranks, row by row inside
 * the database. Returns how many were scored.
 */
export async function insertScores(trx: DB, table: string, now: number, ids: IdRange): Promise<number> {
  const result = await trx.insertInto(table as 'post_ranks').columns(['post_id', 'score', 'computed_at'])
    .expression((eb) => eb.selectFrom('posts')
      .select(['id', scoreAt(now).as('score'), sql.val(new Date(now).toISOString()).as('computed_at')])
      .where('status', '=', 'published').where('archived', '=', 0).where('id', '>', ids.after).where('id', '<=', ids.upTo))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Replaces every score at once: no array of posts in the JavaScript heap. Returns how many were scored. */
export async function replaceRanks(trx: DB, now: number): Promise<number> {
  await trx.deleteFrom('post_rank_order').execute();
  await trx.deleteFrom('post_ranks').execute();
  const result = await trx.insertInto('post_ranks').columns(['post_id', 'score', 'computed_at'])
    .expression((eb) => eb.selectFrom('posts')
      .select(['id', scoreAt(now).as('score'), sql.val(new Date(now).toISOString()).as('computed_at')])
      .where('status', '=', 'published').where('archived', '=', 0))
    .executeTakeFirst();
  await trx.insertInto('post_rank_order').columns(['score', 'post_id'])
    .expression((eb) => eb.selectFrom('post_ranks').select(['score', 'post_id']))
    .execute();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function insertRank(trx: DB, postId: number, score: number, at: string): Promise<void> {
  await trx.insertInto('post_ranks').values({ post_id: postId, score, computed_at: at }).execute();
  await trx.insertInto('post_rank_order').values({ score, post_id: postId }).execute();
}

/** Takes a post out of the order; its post_ranks row goes with the post (ON DELETE CASCADE). */
export async function deleteRankOrder(trx: DB, postId: number): Promise<void> {
  await trx.deleteFrom('post_rank_order')
    .where((eb) => eb(eb.refTuple('score', 'post_id'), 'in', eb.selectFrom('post_ranks')
      .select(['score', 'post_id']).where('post_id', '=', postId).$asTuple('score', 'post_id')))
    .execute();
}

export async function findHighestPostId(db: DB): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Forgets up to `limit` visits counted before `cutoff`: they no longer matter for de-duplication. */
export async function deleteVisitsBefore(db: DB, cutoff: string, limit: number): Promise<number> {
  const result = await db.deleteFrom('post_visits')
    .where((eb) => eb(eb.refTuple('post_id', 'visitor'), 'in', eb.selectFrom('post_visits')
      .select(['post_id', 'visitor']).where('last_counted_at', '<', cutoff).limit(limit).$asTuple('post_id', 'visitor')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
