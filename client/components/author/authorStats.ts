// My profile (SPEC §2): the stats dashboard's totals over the author's non-archived articles, and
// the result count line of the article search.
import type { Post } from '../../types.ts';

export interface AuthorStats {
  visits: number;
  comments: number;
  ratings: number;
  /** Mean of every rating received (each article's average weighted by its count); 0 with none. */
  averageRating: number;
}

export function authorStats(posts: Pick<Post, 'archived' | 'visits' | 'comments_count' | 'ratings_count' | 'average_rating'>[]): AuthorStats {
  let visits = 0;
  let comments = 0;
  let ratings = 0;
  let ratingSum = 0;
  for (const post of posts) {
    if (post.archived) continue;
    visits += post.visits;
    comments += post.comments_count;
    ratings += post.ratings_count;
    ratingSum += post.average_rating * post.ratings_count;
  }
  return { visits, comments, ratings, averageRating: ratings > 0 ? ratingSum / ratings : 0 };
}

/** The line under the search box. */
export function resultCountText(count: number, search: string): string {
  const noun = count === 1 ? 'article' : 'articles';
  return search ? `${count} ${noun} found for “${search}”` : `${count} ${noun}`;
}
