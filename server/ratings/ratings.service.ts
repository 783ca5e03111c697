// Rating an article 1–5 stars: one rating per reader, rating again replaces it.
import { withConnection } from '../connection.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { ARTICLE_NOT_FOUND, reloadPost, visiblePost } from '../posts/posts.service.ts';
import type { Post } from '../posts/posts.view.ts';
import type { UserRow } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.repo.ts';
import { adjustPostRatings, upsertRating } from './ratings.repo.ts';

export function parseRating(value: unknown): number {
  const rating = typeof value === 'string' && /^\s*\d\s*$/.test(value) ? Number(value) : value;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) {
    throw badRequest('Rating must be a whole number from 1 to 5');
  }
  return rating;
}

export async function ratePost(ctx: AppContext, user: UserRow, postId: number, body: Body): Promise<Post> {
  if (body.post_id !== undefined && Number(body.post_id) !== postId) {
    throw badRequest('post_id does not match the article');
  }
  const rating = parseRating(body.rating);
  return withConnection(ctx, (conn) => {
    const post = visiblePost(conn, postId, user);
    if (post.author_id === user.id) throw forbidden('You cannot rate your own articles');
    if (post.archived === 1) throw notFound(ARTICLE_NOT_FOUND);
    conn.atomically(() => {
      const previous = upsertRating(conn, postId, user.id, rating, nowIso());
      const countDelta = previous === undefined ? 1 : 0;
      const sumDelta = rating - (previous ?? 0);
      adjustPostRatings(conn, postId, countDelta, sumDelta);
      adjustAuthorStats(conn, post.author_id, { ratingsCount: countDelta, ratingsSum: sumDelta });
    });
    return reloadPost(conn, postId, user);
  });
}
