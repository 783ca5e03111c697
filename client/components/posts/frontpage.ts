// How Home (SPEC §2) chooses its stories from the four loads: the hero, Top Rated and Recent Posts.
// Pure, so the orderings and exclusions are unit-tested (test/unit/client-reader-frontpage.test.ts).
import type { Post } from '../../types.ts';

export const TOP_RANKING_COUNT = 3;
export const TOP_RATED_COUNT = 4;
export const RECENT_COUNT = 3;
/** SPEC §9 excerpt lengths on Home. */
export const EXCERPT = { hero: 200, topRanking: 90, card: 120, feed: 200, feedShortTitle: 85 } as const;
/** A headline this short is set large in the feed, so its teaser is kept to 85 characters. */
export const SHORT_TITLE = 40;

const newestFirst = (a: Post, b: Post) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;

/** The newest of the ranked posts, else the first front page post, else the first latest post. */
export function pickHero(ranked: Post[], frontpage: Post[], latest: Post[]): Post | undefined {
  if (ranked.length > 0) return [...ranked].sort(newestFirst)[0];
  return frontpage[0] ?? latest[0];
}

/** Every post the page loaded, once each (the first copy wins). */
export function uniquePosts(...lists: Post[][]): Post[] {
  const seen = new Map<number, Post>();
  for (const list of lists) for (const post of list) if (!seen.has(post.id)) seen.set(post.id, post);
  return [...seen.values()];
}

/**
 * Up to 4, excluding the hero, by bayesian rating and then visits (highest first): one 5-star
 * vote does not beat twenty good ones (DESIGN.md, Transparency).
 */
export function pickTopRated(posts: Post[], hero: Post | undefined, count = TOP_RATED_COUNT): Post[] {
  return posts
    .filter((p) => p.id !== hero?.id)
    .sort((a, b) => b.bayesian_rating - a.bayesian_rating || b.visits - a.visits || b.id - a.id)
    .slice(0, count);
}

/** Up to 3 of the newest, skipping the hero and the Top Rated posts. */
export function pickRecent(posts: Post[], skip: Array<Post | undefined>, count = RECENT_COUNT): Post[] {
  const skipped = new Set(skip.filter((p): p is Post => p !== undefined).map((p) => p.id));
  return posts.filter((p) => !skipped.has(p.id)).sort(newestFirst).slice(0, count);
}

/** The front page feed's teaser length: 200, or 85 under a short (large-set) headline. */
export function feedExcerptLength(title: string): number {
  return title.trim().length <= SHORT_TITLE ? EXCERPT.feedShortTitle : EXCERPT.feed;
}
