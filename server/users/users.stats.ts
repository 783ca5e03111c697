// The My profile dashboard in one call (GET /api/users/me/stats; SPEC §2, Stats dashboard).
// The totals over active articles are the counters the user row keeps, moved in the same
// transaction as every visit, rating, comment and (un)archiving (author-stats.service.ts), so a
// request sums nothing; only the archived and draft counts are read, from an index.
import type { AppContext } from '../context.ts';
import type { UserRow } from '../schema.ts';
import { countArchivedPosts, countDraftPosts } from './users.stats.repo.ts';

export interface MyStats {
  /** Visits to my active articles. */
  total_visits: number;
  /** Mean of every rating my active articles received, to two decimals; 0 with none. */
  average_rating: number;
  ratings_received: number;
  /** Comments by others on my active articles (my own replies are not "received"). */
  comments_received: number;
  active_posts: number;
  archived_posts: number;
  /** My drafts: counted nowhere else. */
  draft_posts: number;
  followers: number;
  following: number;
  mojo: number;
}

export async function myStats(ctx: AppContext, user: UserRow): Promise<MyStats> {
  return {
    total_visits: user.received_visits,
    average_rating: user.received_average_rating,
    ratings_received: user.received_ratings_count,
    comments_received: user.received_comments_count,
    active_posts: user.posts_count,
    archived_posts: await countArchivedPosts(ctx.db, user.id),
    draft_posts: await countDraftPosts(ctx.db, user.id),
    followers: user.followers_count,
    following: user.following_count,
    mojo: user.mojo,
  };
}
