// Every stored counter beside the same figure counted again from the base tables.
import { sql } from 'kysely';
import type { DB } from '../db.ts';

export interface UserCounts {
  id: number;
  posts_count: number; followers_count: number; following_count: number;
  received_visits: number; received_ratings_count: number; received_ratings_sum: number;
  received_comments_count: number; received_average_rating: number; mojo: number;
}

export interface PostCounts {
  id: number; ratings_count: number; ratings_sum: number; average_rating: number; comments_count: number;
  real_ratings_count: number; real_ratings_sum: number; real_comments_count: number;
}

export interface HashtagCounts {
  tag: string; posts_count: number; real_count: number;
}

const USER_RECOUNT = sql<UserCounts>`
  SELECT u.id,
    (SELECT count(*) FROM posts p WHERE p.author_id = u.id AND p.archived = 0) AS posts_count,
    (SELECT count(*) FROM follows f WHERE f.followee_id = u.id) AS followers_count,
    (SELECT count(*) FROM follows f WHERE f.follower_id = u.id) AS following_count,
    (SELECT coalesce(sum(p.visits), 0) FROM posts p WHERE p.author_id = u.id AND p.archived = 0) AS received_visits,
    (SELECT count(*) FROM ratings r JOIN posts p ON p.id = r.post_id WHERE p.author_id = u.id AND p.archived = 0) AS received_ratings_count,
    (SELECT coalesce(sum(r.rating), 0) FROM ratings r JOIN posts p ON p.id = r.post_id WHERE p.author_id = u.id AND p.archived = 0) AS received_ratings_sum,
    (SELECT count(*) FROM comments c JOIN posts p ON p.id = c.post_id
      WHERE p.author_id = u.id AND p.archived = 0 AND c.author_id <> u.id) AS received_comments_count
  FROM users u ORDER BY u.id`;

const POST_RECOUNT = sql<PostCounts>`
  SELECT p.id, p.ratings_count, p.ratings_sum, p.average_rating, p.comments_count,
    (SELECT count(*) FROM ratings r WHERE r.post_id = p.id) AS real_ratings_count,
    (SELECT coalesce(sum(r.rating), 0) FROM ratings r WHERE r.post_id = p.id) AS real_ratings_sum,
    (SELECT count(*) FROM comments c WHERE c.post_id = p.id) AS real_comments_count
  FROM posts p ORDER BY p.id`;

const HASHTAG_RECOUNT = sql<HashtagCounts>`
  SELECT t.tag, t.posts_count,
    (SELECT count(*) FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
      WHERE ph.tag = t.tag AND p.archived = 0) AS real_count
  FROM hashtags t
  UNION ALL
  SELECT ph.tag, 0, count(*) FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
    WHERE p.archived = 0 AND ph.tag NOT IN (SELECT tag FROM hashtags) GROUP BY ph.tag`;

/** Each user's stored counters (`stored`) and the same counted again (`counted`), by id. */
export async function recountUsers(db: DB): Promise<{ stored: UserCounts[]; counted: UserCounts[] }> {
  const stored = await db.selectFrom('users').select(['id', 'posts_count', 'followers_count', 'following_count',
    'received_visits', 'received_ratings_count', 'received_ratings_sum', 'received_comments_count',
    'received_average_rating', 'mojo']).orderBy('id').execute();
  return { stored, counted: (await USER_RECOUNT.execute(db)).rows };
}

export async function recountPosts(db: DB): Promise<PostCounts[]> {
  return (await POST_RECOUNT.execute(db)).rows;
}

export async function recountHashtags(db: DB): Promise<HashtagCounts[]> {
  return (await HASHTAG_RECOUNT.execute(db)).rows;
}
