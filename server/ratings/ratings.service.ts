// Rating an article 1–5 stars: one rating per reader, rating again replaces it.
import type { AppContext } from '../context.ts';
import { dialectOf, nowIso } from '../db.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { rateInOneStatement, type RatingWrite } from '../postgres/postgres.hot-writes.ts';
import { ARTICLE_NOT_FOUND, isListed, visiblePostForReader, visibleTo, type ReaderPostRow } from '../posts/posts.service.ts';
import { toPost, type Post } from '../posts/posts.view.ts';
import type { DB, UserRow } from '../schema.ts';
import { adjustAuthorStats, type AuthorStatsChange } from '../users/author-stats.service.ts';
import { requireVerifiedEmail } from '../users/users.verified.ts';
import {
  adjustPostRatings, deleteRatingsByUser, listRatingsByUser, subtractRatingsByUser, sumRatingsByUserPerAuthor, upsertRating,
  type PostRatings,
} from './ratings.repo.ts';

export function parseRating(value: unknown): number {
  const rating = typeof value === 'string' && /^\s*\d\s*$/.test(value) ? Number(value) : value;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) {
    throw badRequest('Rating must be a whole number from 1 to 5');
  }
  return rating;
}

/** The reader's own rating of an article they can see, 0 when they have not rated it. */
export async function readerRating(ctx: AppContext, user: UserRow, postId: number): Promise<{ user_rating: number }> {
  return { user_rating: (await visiblePostForReader(ctx.db, postId, user)).user_rating };
}

export async function ratePost(ctx: AppContext, user: UserRow, postId: number, body: Body): Promise<Post> {
  requireVerifiedEmail(ctx.config, user);
  if (body.post_id !== undefined && Number(body.post_id) !== postId) {
    throw badRequest('post_id does not match the article');
  }
  const write = { postId, userId: user.id, rating: parseRating(body.rating), at: nowIso() };
  const { post, counters } = dialectOf(ctx.db) === 'postgres'
    ? await rateInOneStatement<ReaderPostRow>(ctx.db, write)
    : await ctx.db.transaction().execute((trx) => rateInTransaction(trx, write, user));
  // On PostgreSQL the statement wrote only if these checks pass.
  checkRatable(post, user);
  // The post as it now stands, from what was read and written: no second read.
  return { ...toPost({ ...post, ...counters }), user_rating: write.rating };
}

/** 404 unless the reader can see a listed article (not archived, not a draft), 403 when it is their own. */
function checkRatable(post: ReaderPostRow | undefined, user: UserRow): asserts post is ReaderPostRow {
  const visible = visibleTo(post, user);
  if (visible.author_id === user.id) throw forbidden('You cannot rate your own articles');
  if (!isListed(visible)) throw notFound(ARTICLE_NOT_FOUND);
}

async function rateInTransaction(trx: DB, w: RatingWrite, user: UserRow): Promise<{ post: ReaderPostRow; counters?: PostRatings }> {
  const post = await visiblePostForReader(trx, w.postId, user);
  checkRatable(post, user);
  const previous = post.user_rating;
  await upsertRating(trx, w.postId, w.userId, w.rating, w.at);
  const countDelta = previous === 0 ? 1 : 0;
  const sumDelta = w.rating - previous;
  const counters = await adjustPostRatings(trx, w.postId, countDelta, sumDelta);
  await adjustAuthorStats(trx, post.author_id, { ratingsCount: countDelta, ratingsSum: sumDelta }, {
    cause: previous === 0 ? 'rating_new' : 'rating_changed', at: w.at, postId: w.postId, actorId: w.userId,
  });
  return { post, counters };
}

/**
 * Takes back every rating the user gave (their account is being removed): the rated articles'
 * counters move here; what the authors of active articles received is returned, as changes to
 * their counters and mojo, for the caller to apply in the same transaction.
 */
export async function removeRatingsBy(trx: DB, userId: number): Promise<AuthorStatsChange[]> {
  const perAuthor = await sumRatingsByUserPerAuthor(trx, userId);
  await subtractRatingsByUser(trx, userId);
  await deleteRatingsByUser(trx, userId);
  return perAuthor.map((a) => ({ userId: a.author_id, ratingsCount: -a.n, ratingsSum: -a.total }));
}

export interface GivenRating {
  post_id: number;
  post_title: string;
  rating: number;
  created_at: string;
  updated_at: string;
}

/** Every rating the user gave, newest first. */
export function ratingsGivenBy(db: DB, userId: number): Promise<GivenRating[]> {
  return listRatingsByUser(db, userId);
}
