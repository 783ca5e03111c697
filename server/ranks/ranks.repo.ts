// SQL for stored rankings (each post's score in post_ranks, the same scores in their order in
// post_rank_order) and the visit log they prune.
import { sql } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { DB, PostRanksTable } from '../schema.ts';

/** The score rule as SQL: rank_score is registered by the dialect (the very same TypeScript rule). */
const scoreAt = (now: number) =>
  sql<number>`rank_score(visits, ratings_count, ratings_sum, comments_count, created_at, ${now})`;

/** A post_ranks row: the score and what it was computed from (GET /api/posts/{id}/rank). */
const RANK_COLUMNS = ['post_id', 'score', 'computed_at', 'visits', 'ratings_count', 'ratings_sum', 'comments_count'] as const;

function scoredColumns(now: number) {
  return ['id', scoreAt(now).as('score'), sql.val(new Date(now).toISOString()).as('computed_at'),
    'visits', 'ratings_count', 'ratings_sum', 'comments_count'] as const;
}

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
  const result = await trx.insertInto(table as 'post_ranks').columns(RANK_COLUMNS)
    .expression((eb) => eb.selectFrom('posts').select(scoredColumns(now))
      .where('status', '=', 'published').where('archived', '=', 0).where('id', '>', ids.after).where('id', '<=', ids.upTo))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Replaces every score at once: no array of posts in the JavaScript heap. Returns how many were scored. */
export async function replaceRanks(trx: DB, now: number): Promise<number> {
  await trx.deleteFrom('post_rank_order').execute();
  await trx.deleteFrom('post_ranks').execute();
  const result = await trx.insertInto('post_ranks').columns(RANK_COLUMNS)
    .expression((eb) => eb.selectFrom('posts').select(scoredColumns(now))
      .where('status', '=', 'published').where('archived', '=', 0))
    .executeTakeFirst();
  // Each post's place in The Pulse as it lists them: highest score first, then highest id.
  await trx.insertInto('post_rank_order').columns(['score', 'post_id', 'position'])
    .expression((eb) => eb.selectFrom('post_ranks').select(['score', 'post_id',
      sql<number>`row_number() OVER (ORDER BY score DESC, post_id DESC)`.as('position')]))
    .execute();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * A post scored as it is published: nothing earned yet, no stored position until the next refresh
 * (GET /api/posts/{id}/rank places it among the others as The Pulse lists it: findPlaceAbove).
 */
export async function insertRank(trx: DB, postId: number, score: number, at: string): Promise<void> {
  await trx.insertInto('post_ranks')
    .values({ post_id: postId, score, computed_at: at, visits: 0, ratings_count: 0, ratings_sum: 0, comments_count: 0 }).execute();
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

/** Before an author's posts are deleted: their rows of the ranking's order (post_ranks cascades). */
export async function deleteAuthorRankOrder(trx: DB, authorId: number): Promise<void> {
  await trx.deleteFrom('post_rank_order')
    .where((eb) => eb(eb.refTuple('score', 'post_id'), 'in', eb.selectFrom('post_ranks')
      .innerJoin('posts', 'posts.id', 'post_ranks.post_id')
      .select(['post_ranks.score', 'post_ranks.post_id']).where('posts.author_id', '=', authorId)
      .$asTuple('score', 'post_id')))
    .execute();
}

/** m now: the mean of every rating of every article (3 when there is none). */
export async function measureRatingMean(db: DB): Promise<number> {
  const row = await db.selectFrom('posts')
    .select((eb) => [eb.fn.sum<number>('ratings_sum').as('total'), eb.fn.sum<number>('ratings_count').as('n')])
    .executeTakeFirst();
  const n = Number(row?.n ?? 0);
  return n > 0 ? Number(row?.total) / n : 3;
}

/** Records a refresh: its moment and the m it measured, read by every bayesian_rating. */
export async function saveRefresh(trx: DB, refreshedAt: string, ratingMean: number): Promise<void> {
  await trx.insertInto('rank_refresh').values({ id: 1, refreshed_at: refreshedAt, rating_mean: ratingMean })
    .onConflict((oc) => oc.column('id').doUpdateSet({ refreshed_at: refreshedAt, rating_mean: ratingMean }))
    .execute();
}

export async function findRefresh(db: DB): Promise<{ refreshed_at: string | null; rating_mean: number } | undefined> {
  return db.selectFrom('rank_refresh').select(['refreshed_at', 'rating_mean']).where('id', '=', 1).executeTakeFirst();
}

/** A post's stored score and its inputs, with its place and the refresh's time. */
export type PostRankRow = Omit<PostRanksTable, 'post_id'> & {
  position: number | null;
  created_at: string;
  refreshed_at: string | null;
};

/**
 * A listed post's stored rank, by keys only: its post_ranks row, its place in post_rank_order,
 * the post itself (still listed?) and the refresh's row. Undefined when it has none.
 */
export async function findPostRank(db: DB, postId: number): Promise<PostRankRow | undefined> {
  return postRank.first(db, { postId });
}

const postRank = preparedQuery((db, p: { postId: number }) => db.selectFrom('post_ranks as r')
  .innerJoin('post_rank_order as o', (join) => join.onRef('o.score', '=', 'r.score').onRef('o.post_id', '=', 'r.post_id'))
  .innerJoin('posts as p', 'p.id', 'r.post_id')
  .leftJoin('rank_refresh as f', (join) => join.on('f.id', '=', 1))
  .select(['r.score', 'r.computed_at', 'r.visits', 'r.ratings_count', 'r.ratings_sum', 'r.comments_count', 'o.position',
    'p.created_at', 'f.refreshed_at'])
  .where('r.post_id', '=', p.postId).where('p.status', '=', 'published').where('p.archived', '=', 0));

/** Above a post in The Pulse's order: listed posts published since the refresh, and the nearest placed row. */
export interface PlaceAbove {
  /** Listed posts without a stored position (published since the refresh) ranked above it. */
  arrivals: number;
  /** The stored position of the nearest row above it that has one; 0 when none. */
  placed: number;
}

/**
 * What The Pulse's unfiltered order has above (`score`, `postId`) that the refresh's positions do
 * not count: the posts published since it, found through posts_listed_created from `since` (a few
 * rows, each then read by keys), and the nearest stored position above, by the order's key from
 * there upward (past those few new rows).
 */
export async function findPlaceAbove(db: DB, p: { score: number; postId: number; since: string }): Promise<PlaceAbove> {
  const row = await placeAbove.first(db, p);
  return { arrivals: Number(row?.arrivals ?? 0), placed: Number(row?.placed ?? 0) };
}

const placeAbove = preparedQuery((db, p: { score: number; postId: number; since: string }) => db.selectNoFrom((eb) => [
  eb.selectFrom('posts as p')
    .innerJoin('post_ranks as r', 'r.post_id', 'p.id')
    .innerJoin('post_rank_order as o', (join) => join.onRef('o.score', '=', 'r.score').onRef('o.post_id', '=', 'r.post_id'))
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('p.status', '=', 'published').where('p.archived', '=', 0).where('p.created_at', '>=', p.since)
    .where('o.position', 'is', null)
    .where(sql<boolean>`(o.score, o.post_id) > (${p.score}, ${p.postId})`)
    .as('arrivals'),
  eb.selectFrom('post_rank_order as o').select('o.position')
    .where(sql<boolean>`(o.score, o.post_id) > (${p.score}, ${p.postId})`).where('o.position', 'is not', null)
    .orderBy('o.score').orderBy('o.post_id').limit(1)
    .as('placed'),
]));
