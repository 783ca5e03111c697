// SQL for stored rankings and the visit log they prune.
import { sql } from 'kysely';
import type { DB } from '../db.ts';

/**
 * Replaces every score with one computed row by row inside the database (rank_score, registered
 * by the dialect): no array of 100k posts in the JavaScript heap. Returns how many were scored.
 */
export async function replaceRanks(trx: DB, now: number): Promise<number> {
  const computedAt = new Date(now).toISOString();
  await trx.deleteFrom('post_ranks').execute();
  const result = await trx.insertInto('post_ranks')
    .columns(['post_id', 'score', 'computed_at'])
    .expression((eb) => eb.selectFrom('posts')
      .select(['id', sql<number>`rank_score(visits, ratings_count, ratings_sum, comments_count, created_at, ${now})`.as('score'),
        sql.val(computedAt).as('computed_at')])
      .where('archived', '=', 0))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function insertRank(trx: DB, postId: number, score: number, at: string): Promise<void> {
  await trx.insertInto('post_ranks').values({ post_id: postId, score, computed_at: at }).execute();
}

/** Forgets visits counted before `cutoff`: they no longer matter for de-duplication. */
export async function deleteVisitsBefore(db: DB, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('post_visits').where('last_counted_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
