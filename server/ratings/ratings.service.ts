// Rating an article 1–5 stars: one rating per reader, rating again replaces it.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { ARTICLE_NOT_FOUND, visiblePostForReader } from '../posts/posts.service.ts';
import { toPost, type Post } from '../posts/posts.view.ts';
import type { UserRow } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import { adjustPostRatings, upsertRating } from './ratings.repo.ts';

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
  if (body.post_id !== undefined && Number(body.post_id) !== postId) {
    throw badRequest('post_id does not match the article');
  }
  const rating = parseRating(body.rating);
  return ctx.db.transaction().execute(async (trx) => {
    const post = await visiblePostForReader(trx, postId, user);
    if (post.author_id === user.id) throw forbidden('You cannot rate your own articles');
    if (post.archived === 1) throw notFound(ARTICLE_NOT_FOUND);
    const previous = post.user_rating;
    await upsertRating(trx, postId, user.id, rating, nowIso());
    const countDelta = previous === 0 ? 1 : 0;
    const sumDelta = rating - previous;
    const counters = await adjustPostRatings(trx, postId, countDelta, sumDelta);
    await adjustAuthorStats(trx, post.author_id, { ratingsCount: countDelta, ratingsSum: sumDelta });
    // The post as it now stands, from what the transaction read and wrote: no second read.
    return { ...toPost({ ...post, ...counters }), user_rating: rating };
  });
}
