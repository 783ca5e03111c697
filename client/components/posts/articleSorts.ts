// The six sorts of an author's article list (SPEC §2, My profile and Public profile): the sort_by
// values GET /api/users/{id}/posts takes, with their labels.
import type { PostSort } from '../../types.ts';

export const ARTICLE_SORTS = [
  { value: 'newest', label: 'Most recent' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'most_visited', label: 'Most visited' },
  { value: 'least_visited', label: 'Least visited' },
  { value: 'best_rated', label: 'Best rated' },
  { value: 'lowest_rated', label: 'Lowest rated' },
] as const satisfies ReadonlyArray<{ value: PostSort; label: string }>;

export type ArticleSort = (typeof ARTICLE_SORTS)[number]['value'];
