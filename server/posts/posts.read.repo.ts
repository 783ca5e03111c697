// SQL for one article's read: the article with its rating histogram, and the visits it counts.
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database, DB } from '../schema.ts';
import { preparedQuery } from '../prepared-query.ts';
import { selectPosts, type PostListRow, type ReaderPostRow } from './posts.repo.ts';

/** The article as its page reads it: the post (with the reader's rating) and how many ratings of
 * each star it has, [n1 … n5], in the same statement — five counts over its ratings, read by the
 * primary key's leading post_id (no counter to keep in every rating write, no second round trip). */
export type ArticleRow = (PostListRow | ReaderPostRow) & { stars_1: number; stars_2: number; stars_3: number; stars_4: number; stars_5: number };

const STARS = [1, 2, 3, 4, 5] as const;

const withStarCounts = <Q extends SelectQueryBuilder<Database, 'posts' | 'users', object>>(query: Q) =>
  query.select((eb) => STARS.map((n) => eb.selectFrom('ratings').select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('ratings.post_id', '=', 'posts.id').where('ratings.rating', '=', n).as(`stars_${n}`)));

const articleById = preparedQuery((db, p: { id: number }) =>
  withStarCounts(selectPosts(db.selectFrom('posts')).where('posts.id', '=', p.id)));

const articleForReader = preparedQuery((db, p: { id: number; readerId: number }) =>
  withStarCounts(selectPosts(db.selectFrom('posts'))
    .select((eb) => eb.fn.coalesce(
      eb.selectFrom('ratings').select('ratings.rating')
        .whereRef('ratings.post_id', '=', 'posts.id').where('ratings.user_id', '=', p.readerId),
      eb.lit(0),
    ).as('user_rating'))
    .where('posts.id', '=', p.id)));

export async function findArticle(db: DB, id: number, readerId: number | undefined): Promise<ArticleRow | undefined> {
  return (readerId === undefined ? articleById.first(db, { id }) : articleForReader.first(db, { id, readerId })) as Promise<ArticleRow | undefined>;
}

const readerRating = preparedQuery((db, p: { postId: number; readerId: number }) =>
  db.selectFrom('ratings').select('rating').where('post_id', '=', p.postId).where('user_id', '=', p.readerId));

/** The reader's own rating of the post, 0 when none. */
export async function findReaderRating(db: DB, postId: number, readerId: number): Promise<number> {
  return (await readerRating.first(db, { postId, readerId }))?.rating ?? 0;
}

export function starCountsOf(row: ArticleRow): number[] {
  return [Number(row.stars_1), Number(row.stars_2), Number(row.stars_3), Number(row.stars_4), Number(row.stars_5)];
}

const lastVisit = preparedQuery((db, p: { postId: number; visitor: string }) =>
  db.selectFrom('post_visits').select('last_counted_at').where('post_id', '=', p.postId).where('visitor', '=', p.visitor));

/** When this visitor's last visit to the post was counted, if it was. */
export async function findLastVisit(db: DB, postId: number, visitor: string): Promise<string | undefined> {
  return (await lastVisit.first(db, { postId, visitor }))?.last_counted_at;
}

const countedVisit = preparedQuery((db, p: { postId: number; visitor: string; at: string; cutoff: string }) =>
  db.insertInto('post_visits')
    .values({ post_id: p.postId, visitor: p.visitor, last_counted_at: p.at })
    .onConflict((oc) => oc.columns(['post_id', 'visitor'])
      .doUpdateSet({ last_counted_at: (eb) => eb.ref('excluded.last_counted_at') })
      .where('post_visits.last_counted_at', '<', p.cutoff))
    .returning('post_id'));

const addVisit = preparedQuery((db, p: { postId: number }) =>
  db.updateTable('posts').set({ visits: sql`visits + 1` }).where('id', '=', p.postId));

/**
 * Counts a visit unless this visitor's last one was counted at or after `cutoff`; true when it
 * counted. The check and the write are one statement, so two reads at once count once. The
 * author's counters are the caller's.
 */
export async function recordVisit(trx: DB, postId: number, visitor: string, at: string, cutoff: string): Promise<boolean> {
  if (!await countedVisit.first(trx, { postId, visitor, at, cutoff })) return false;
  await addVisit.changed(trx, { postId });
  return true;
}

/** Forgets when this reader's visits were last counted (post_visits has no index by reader:
 * its rows last 30 minutes, so the table stays small). */
export async function deleteVisitsBy(trx: DB, visitor: string): Promise<void> {
  await trx.deleteFrom('post_visits').where('visitor', '=', visitor).execute();
}
