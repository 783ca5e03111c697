// The public profile's hashtag chips (SPEC §2, Public profile): the author's own hashtags, most
// used first.
import type { Post } from '../../types.ts';

/** The author's hashtags by how many of their articles use each, then alphabetically. */
export function tagsByUse(posts: Post[], max = 8): string[] {
  const counts = new Map<string, number>();
  for (const post of posts) for (const tag of post.hashtags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, max).map(([tag]) => tag);
}
