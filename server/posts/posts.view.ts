// The Post object of DESIGN.md, Objects.
import { bayesianRating } from '../mojo/mojo.formula.ts';
import { storedHashtags } from '../../shared/articles.ts';
import type { PostStatus } from '../schema.ts';
import { uploadUrl } from '../uploads.ts';
import type { PostListRow } from './posts.repo.ts';

export interface Post {
  id: number;
  title: string;
  /** The Markdown source, as the editor edits it (DESIGN.md, Writing). */
  content: string;
  /** Its sanitized rendering, made when written: what readers see. */
  content_html: string;
  image: string | null;
  /** The picture's alt text; '' when none was given (the title stands in). */
  image_alt: string;
  /** The content's words ÷ 230, at least 1: 'N min read'. */
  reading_minutes: number;
  hashtags: string[];
  created_at: string;
  updated_at: string;
  archived: boolean;
  /** 'draft': seen by its author and admins only, counted nowhere until published. */
  status: PostStatus;
  visits: number;
  ratings_count: number;
  average_rating: number;
  /** (5·m + sum of ratings) / (5 + ratings_count), m the site-wide mean as of the last ranking refresh. */
  bayesian_rating: number;
  comments_count: number;
  /** Likes and boosts from the fediverse (DESIGN.md, Inbox): shown beside the rating, never ranked. */
  likes_count: number;
  boosts_count: number;
  author_id: number;
  author_username: string;
  author_avatar: string | null;
  /** The reader's own rating, 0 when none; only on a single post for a signed-in reader. */
  user_rating?: number;
  /** How many 1★ … 5★ ratings: only on one article (GET /api/posts/{id}). */
  rating_histogram?: number[];
  /** Only in feeds that show a teaser (front page). */
  excerpt?: string;
}

export function toPost(row: PostListRow): Post {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    content_html: row.content_html,
    image: uploadUrl(row.image),
    image_alt: row.image_alt,
    reading_minutes: row.reading_minutes,
    hashtags: storedHashtags(row.hashtags),
    created_at: row.created_at,
    updated_at: row.updated_at,
    archived: row.archived === 1,
    status: row.status,
    visits: row.visits,
    ratings_count: row.ratings_count,
    average_rating: row.average_rating,
    bayesian_rating: bayesianRating(row.ratings_sum, row.ratings_count, row.rating_mean),
    comments_count: row.comments_count,
    likes_count: row.likes_count,
    boosts_count: row.boosts_count,
    author_id: row.author_id,
    author_username: row.author_username,
    author_avatar: uploadUrl(row.author_avatar),
  };
}
