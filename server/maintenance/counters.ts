// Recounts every stored counter from the base tables and reports where they disagree.
// Used by the tests (counters must never drift) and by operators through the CLI.
import type SQLite from 'better-sqlite3';
import { averageRating, computeMojo } from '../mojo/mojo.formula.ts';

interface UserCounts {
  id: number;
  posts_count: number; followers_count: number; following_count: number;
  received_visits: number; received_ratings_count: number; received_ratings_sum: number;
  received_comments_count: number; received_average_rating: number; mojo: number;
}

const USER_RECOUNT = `
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

const POST_RECOUNT = `
  SELECT p.id, p.ratings_count, p.ratings_sum, p.average_rating, p.comments_count,
    (SELECT count(*) FROM ratings r WHERE r.post_id = p.id) AS real_ratings_count,
    (SELECT coalesce(sum(r.rating), 0) FROM ratings r WHERE r.post_id = p.id) AS real_ratings_sum,
    (SELECT count(*) FROM comments c WHERE c.post_id = p.id) AS real_comments_count
  FROM posts p ORDER BY p.id`;

const HASHTAG_RECOUNT = `
  SELECT t.tag, t.posts_count,
    (SELECT count(*) FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
      WHERE ph.tag = t.tag AND p.archived = 0) AS real_count
  FROM hashtags t
  UNION ALL
  SELECT ph.tag, 0, count(*) FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
    WHERE p.archived = 0 AND ph.tag NOT IN (SELECT tag FROM hashtags) GROUP BY ph.tag`;

const close = (a: number, b: number) => Math.abs(a - b) < 0.011;

/** Each disagreement as one readable line; an empty list means every counter is right. */
export function findCounterDrift(sqlite: SQLite.Database): string[] {
  const drift: string[] = [];
  const stored = new Map((sqlite.prepare('SELECT * FROM users').all() as UserCounts[]).map((u) => [u.id, u]));
  for (const real of sqlite.prepare(USER_RECOUNT).all() as UserCounts[]) {
    const user = stored.get(real.id)!;
    for (const key of ['posts_count', 'followers_count', 'following_count', 'received_visits',
      'received_ratings_count', 'received_ratings_sum', 'received_comments_count'] as const) {
      if (user[key] !== real[key]) drift.push(`user ${real.id} ${key}: stored ${user[key]}, counted ${real[key]}`);
    }
    const mojo = computeMojo({
      ratingsCount: real.received_ratings_count, ratingsSum: real.received_ratings_sum,
      comments: real.received_comments_count, visits: real.received_visits, followers: real.followers_count,
    });
    if (!close(user.mojo, mojo)) drift.push(`user ${real.id} mojo: stored ${user.mojo}, computed ${mojo}`);
    const average = averageRating(real.received_ratings_sum, real.received_ratings_count);
    if (!close(user.received_average_rating, average)) {
      drift.push(`user ${real.id} received_average_rating: stored ${user.received_average_rating}, computed ${average}`);
    }
  }
  type PostCounts = { id: number; ratings_count: number; ratings_sum: number; average_rating: number; comments_count: number;
    real_ratings_count: number; real_ratings_sum: number; real_comments_count: number };
  for (const p of sqlite.prepare(POST_RECOUNT).all() as PostCounts[]) {
    if (p.ratings_count !== p.real_ratings_count) drift.push(`post ${p.id} ratings_count: stored ${p.ratings_count}, counted ${p.real_ratings_count}`);
    if (p.ratings_sum !== p.real_ratings_sum) drift.push(`post ${p.id} ratings_sum: stored ${p.ratings_sum}, counted ${p.real_ratings_sum}`);
    if (p.comments_count !== p.real_comments_count) drift.push(`post ${p.id} comments_count: stored ${p.comments_count}, counted ${p.real_comments_count}`);
    const average = averageRating(p.real_ratings_sum, p.real_ratings_count);
    if (!close(p.average_rating, average)) drift.push(`post ${p.id} average_rating: stored ${p.average_rating}, computed ${average}`);
  }
  for (const t of sqlite.prepare(HASHTAG_RECOUNT).all() as Array<{ tag: string; posts_count: number; real_count: number }>) {
    if (t.posts_count !== t.real_count) drift.push(`hashtag ${t.tag}: stored ${t.posts_count}, counted ${t.real_count}`);
  }
  return drift;
}
