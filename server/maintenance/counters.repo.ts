// Every stored counter beside the same figure counted again from the base tables.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

export interface UserCounts {
  id: number;
  posts_count: number; followers_count: number; following_count: number;
  received_visits: number; received_ratings_count: number; received_ratings_sum: number;
  received_comments_count: number; received_average_rating: number; mojo: number;
  /** Followers on other servers (remote_followers). */
  remote_followers_count: number;
}

export interface PostCounts {
  id: number; ratings_count: number; ratings_sum: number; average_rating: number; comments_count: number;
  real_ratings_count: number; real_ratings_sum: number; real_comments_count: number;
  /** Likes and boosts from the fediverse (post_reactions). */
  likes_count: number; boosts_count: number; real_likes_count: number; real_boosts_count: number;
}

export interface HashtagCounts {
  tag: string; posts_count: number; real_count: number;
}

// Each recount reads every base table once, grouped, and joins the groups to the counted rows: a
// per-row subquery took PostgreSQL 18 s at 30k articles (a plan per user and per article).
const USER_RECOUNT = sql<UserCounts>`
  SELECT u.id,
    coalesce(authored.n, 0) AS posts_count,
    coalesce(followers.n, 0) AS followers_count,
    coalesce(following.n, 0) AS following_count,
    coalesce(authored.visits, 0) AS received_visits,
    coalesce(rated.n, 0) AS received_ratings_count,
    coalesce(rated.total, 0) AS received_ratings_sum,
    coalesce(commented.n, 0) AS received_comments_count,
    coalesce(remote.n, 0) AS remote_followers_count
  FROM users u
  LEFT JOIN (SELECT author_id, count(*) AS n, sum(visits) AS visits FROM posts
    WHERE archived = 0 AND status = 'published' GROUP BY author_id) authored ON authored.author_id = u.id
  LEFT JOIN (SELECT followee_id, count(*) AS n FROM follows GROUP BY followee_id) followers
    ON followers.followee_id = u.id
  LEFT JOIN (SELECT follower_id, count(*) AS n FROM follows GROUP BY follower_id) following
    ON following.follower_id = u.id
  LEFT JOIN (SELECT p.author_id, count(*) AS n, sum(r.rating) AS total FROM ratings r
    JOIN posts p ON p.id = r.post_id WHERE p.archived = 0 AND p.status = 'published' GROUP BY p.author_id) rated ON rated.author_id = u.id
  LEFT JOIN (SELECT p.author_id, count(*) AS n FROM comments c JOIN posts p ON p.id = c.post_id
    WHERE p.archived = 0 AND p.status = 'published' AND (c.author_id IS NULL OR c.author_id <> p.author_id)
    GROUP BY p.author_id) commented ON commented.author_id = u.id
  LEFT JOIN (SELECT user_id, count(*) AS n FROM remote_followers GROUP BY user_id) remote ON remote.user_id = u.id
  ORDER BY u.id`;

const POST_RECOUNT = sql<PostCounts>`
  SELECT p.id, p.ratings_count, p.ratings_sum, p.average_rating, p.comments_count, p.likes_count, p.boosts_count,
    coalesce(rated.n, 0) AS real_ratings_count,
    coalesce(rated.total, 0) AS real_ratings_sum,
    coalesce(commented.n, 0) AS real_comments_count,
    coalesce(reacted.likes, 0) AS real_likes_count,
    coalesce(reacted.boosts, 0) AS real_boosts_count
  FROM posts p
  LEFT JOIN (SELECT post_id, count(*) AS n, sum(rating) AS total FROM ratings GROUP BY post_id) rated
    ON rated.post_id = p.id
  LEFT JOIN (SELECT post_id, count(*) AS n FROM comments GROUP BY post_id) commented ON commented.post_id = p.id
  LEFT JOIN (SELECT post_id, sum(CASE WHEN kind = 'like' THEN 1 ELSE 0 END) AS likes,
    sum(CASE WHEN kind = 'boost' THEN 1 ELSE 0 END) AS boosts FROM post_reactions GROUP BY post_id) reacted ON reacted.post_id = p.id
  ORDER BY p.id`;

const HASHTAG_RECOUNT = sql<HashtagCounts>`
  SELECT t.tag, t.posts_count, coalesce(tagged.n, 0) AS real_count
  FROM hashtags t
  LEFT JOIN (SELECT ph.tag, count(*) AS n FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
    WHERE p.archived = 0 AND p.status = 'published' GROUP BY ph.tag) tagged ON tagged.tag = t.tag
  UNION ALL
  SELECT ph.tag, 0, count(*) FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
    WHERE p.archived = 0 AND p.status = 'published' AND ph.tag NOT IN (SELECT tag FROM hashtags) GROUP BY ph.tag`;

/** Each user's stored counters (`stored`) and the same counted again (`counted`), by id. */
export async function recountUsers(db: DB): Promise<{ stored: UserCounts[]; counted: UserCounts[] }> {
  const stored = await db.selectFrom('users').select(['id', 'posts_count', 'followers_count', 'following_count',
    'received_visits', 'received_ratings_count', 'received_ratings_sum', 'received_comments_count',
    'received_average_rating', 'mojo', 'remote_followers_count']).orderBy('id').execute();
  return { stored, counted: (await USER_RECOUNT.execute(db)).rows };
}

export async function recountPosts(db: DB): Promise<PostCounts[]> {
  return (await POST_RECOUNT.execute(db)).rows;
}

export async function recountHashtags(db: DB): Promise<HashtagCounts[]> {
  return (await HASHTAG_RECOUNT.execute(db)).rows;
}

export interface LedgerSum {
  id: number;
  /** The stored mojo, in hundredths. */
  mojo_h: number;
  /** What the user's ledger events add up to, in hundredths. */
  ledger_h: number;
}

const USER_LEDGER_SUMS = sql`
  SELECT u.id, CAST(round(u.mojo * 100) AS integer) AS mojo_h, coalesce(l.total, 0) AS ledger_h
  FROM users u
  LEFT JOIN (SELECT user_id, sum(delta) AS total FROM mojo_events GROUP BY user_id) l ON l.user_id = u.id`;

/** Every user whose ledger does not add up to their stored mojo. */
export async function listLedgerDrift(db: DB): Promise<LedgerSum[]> {
  const { rows } = await sql<LedgerSum>`SELECT s.id, s.mojo_h, s.ledger_h FROM (${USER_LEDGER_SUMS}) s
    WHERE s.mojo_h <> s.ledger_h ORDER BY s.id`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), mojo_h: Number(r.mojo_h), ledger_h: Number(r.ledger_h) }));
}

/**
 * Sets each user's counters to the figures counted from the base tables, and their mojo and
 * average by the same SQL functions every write uses; only rows that differ are written.
 */
export async function setUserCountersToCounted(trx: DB, counted: UserCounts[]): Promise<void> {
  for (const c of counted) {
    await trx.updateTable('users').set({
      posts_count: c.posts_count, followers_count: c.followers_count, following_count: c.following_count,
      received_visits: c.received_visits, received_ratings_count: c.received_ratings_count,
      received_ratings_sum: c.received_ratings_sum, received_comments_count: c.received_comments_count,
      remote_followers_count: c.remote_followers_count,
      mojo: sql`mojo_score(${c.received_ratings_count}, ${c.received_ratings_sum}, ${c.received_comments_count},
        ${c.received_visits}, ${c.followers_count})`,
      received_average_rating: sql`mean_rating(${c.received_ratings_sum}, ${c.received_ratings_count})`,
    }).where('id', '=', c.id).execute();
  }
}

/**
 * A visible `recompute` event for every user whose ledger does not add up to their stored mojo,
 * by the difference: afterwards every ledger does. Returns how many were written.
 */
export async function insertRecomputeEvents(trx: DB, at: string): Promise<number> {
  const result = await sql`INSERT INTO mojo_events (user_id, at, delta, mojo_after, cause)
    SELECT s.id, CAST(${at} AS text), s.mojo_h - s.ledger_h, s.mojo_h, 'recompute'
    FROM (${USER_LEDGER_SUMS}) s WHERE s.mojo_h <> s.ledger_h ORDER BY s.id`.execute(trx);
  return Number(result.numAffectedRows ?? 0n);
}
