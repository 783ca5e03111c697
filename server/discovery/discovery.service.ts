// The directory pages: the front page's choice, The Pulse, hashtags in use and the authors list.
import { excerpt } from '../../shared/excerpt.ts';
import { htmlText } from '../../shared/html-text.ts';
import type { AppContext } from '../context.ts';
import type { Page } from '../http.ts';
import { listNewest, listRanked, type PostFilter, type RankCriteria } from '../posts/posts.service.ts';
import type { Post } from '../posts/posts.view.ts';
import { refreshTimes, type RefreshTimes } from '../ranks/ranks.service.ts';
import { toPublicUser, type PublicUser } from '../users/users.view.ts';
import { countAuthors, listAuthors, listHashtagStats, type AuthorSort, type HashtagStat } from './discovery.repo.ts';

export { AUTHOR_SORTS } from './discovery.repo.ts';
export type { AuthorSort, HashtagStat };

const FRONT_PAGE_SIZE = 20;
const FRONT_PAGE_RANKED = 10;
const FRONT_PAGE_EXCERPT = 200;
const WEEK_MS = 7 * 86_400_000;

/**
 * Up to 20 posts: the best ranked of the last 7 days, then the newest, each with a teaser;
 * `mutedBy`, a reader whose mutes are left out.
 */
export async function frontPage(ctx: AppContext, now = Date.now(), mutedBy?: number): Promise<Post[]> {
  const since = new Date(now - WEEK_MS).toISOString();
  const [ranked, newest] = await Promise.all([
    listRanked(ctx, { archived: false, since, mutedBy }, 'ranking', { skip: 0, limit: FRONT_PAGE_RANKED }),
    listNewest(ctx, { archived: false, mutedBy }, { skip: 0, limit: FRONT_PAGE_SIZE }),
  ]);
  const chosen = [...ranked, ...newest.filter((p) => !ranked.some((r) => r.id === p.id))].slice(0, FRONT_PAGE_SIZE);
  return chosen.map((post) => ({ ...post, excerpt: excerpt(htmlText(post.content_html), FRONT_PAGE_EXCERPT) }));
}

/** GET /api/ranks: The Pulse's page, and when its scores were last and will next be refreshed. */
export interface RankedFeed extends RefreshTimes {
  posts: Post[];
}

export async function rankedFeed(
  ctx: AppContext, filter: Pick<PostFilter, 'hashtagContains' | 'since' | 'mutedBy'>, criteria: RankCriteria, page: Page,
): Promise<RankedFeed> {
  const [posts, times] = await Promise.all([rankedPosts(ctx, filter, criteria, page), refreshTimes(ctx.db, ctx.config.rankRefreshHours)]);
  return { posts, ...times };
}

/** The Pulse: active posts only. */
export function rankedPosts(
  ctx: AppContext, filter: Pick<PostFilter, 'hashtagContains' | 'since' | 'mutedBy'>, criteria: RankCriteria, page: Page,
): Promise<Post[]> {
  return listRanked(ctx, { ...filter, archived: false }, criteria, page);
}

export function hashtagStats(ctx: AppContext, search: string | undefined, limit: number): Promise<HashtagStat[]> {
  return listHashtagStats(ctx.db, search, limit);
}

export type AuthorCard = PublicUser & { average_rating: number };

export async function authorsPage(
  ctx: AppContext, search: string | undefined, sort: AuthorSort, page: Page,
): Promise<{ authors: AuthorCard[]; total: number }> {
  const [rows, total] = await Promise.all([listAuthors(ctx.db, search, sort, page), countAuthors(ctx.db, search)]);
  return {
    authors: rows.map((row) => ({ ...toPublicUser(row), average_rating: row.received_average_rating })),
    total,
  };
}
