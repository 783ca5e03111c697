// The public profile's article filters (SPEC §2, Public profile): six sorts and the time periods,
// sent to GET /api/users/{id}/posts; and the author's own hashtags, most used first, for the chips.
import type { Post } from '../../types.ts';

export const ARTICLE_SORTS = [
  { value: 'newest', label: 'Most recent' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'most_visited', label: 'Most visited' },
  { value: 'least_visited', label: 'Least visited' },
  { value: 'best_rated', label: 'Best rated' },
  { value: 'lowest_rated', label: 'Lowest rated' },
] as const;

export type ArticleSort = (typeof ARTICLE_SORTS)[number]['value'];

/** The author's hashtags by how many of their articles use each, then alphabetically. */
export function tagsByUse(posts: Post[], max = 8): string[] {
  const counts = new Map<string, number>();
  for (const post of posts) for (const tag of post.hashtags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, max).map(([tag]) => tag);
}
