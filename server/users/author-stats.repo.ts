// SQL for the counters on a user row that follow from other tables, and the mojo derived from them.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import { preparedQuery } from '../prepared-query.ts';
import type { MojoCause } from '../../shared/mojo.ts';

export interface AuthorStatsDelta {
  posts?: number;
  visits?: number;
  ratingsCount?: number;
  ratingsSum?: number;
  comments?: number;
  followers?: number;
  following?: number;
}

export type AuthorStatsRow = Required<AuthorStatsDelta> & { userId: number };

/**
 * The counters move by the delta, and mojo and the average rating are computed from the moved
 * counters by mojo_score and mean_rating (mojo.formula.ts, registered by the dialect). Every
 * right-hand side reads the row as it was, hence `+ delta` inside them too.
 */
const movedStats = (db: DB, p: AuthorStatsRow) =>
  db.updateTable('users').set({
    posts_count: sql`posts_count + ${p.posts}`,
    received_visits: sql`received_visits + ${p.visits}`,
    received_ratings_count: sql`received_ratings_count + ${p.ratingsCount}`,
    received_ratings_sum: sql`received_ratings_sum + ${p.ratingsSum}`,
    received_comments_count: sql`received_comments_count + ${p.comments}`,
    followers_count: sql`followers_count + ${p.followers}`,
    following_count: sql`following_count + ${p.following}`,
    mojo: sql`mojo_score(received_ratings_count + ${p.ratingsCount}, received_ratings_sum + ${p.ratingsSum},
      received_comments_count + ${p.comments}, received_visits + ${p.visits}, followers_count + ${p.followers})`,
    received_average_rating: sql`mean_rating(received_ratings_sum + ${p.ratingsSum}, received_ratings_count + ${p.ratingsCount})`,
  }).where('id', '=', p.userId);

const addToStats = preparedQuery(movedStats);

/**
 * The same move, returning the user's mojo after and before it in hundredths, for the ledger.
 * RETURNING reads the row as written; mojo before is the formula over the counters before the
 * delta (every write sets mojo by that formula, so this is the mojo that was stored).
 */
const addToStatsReturningMojo = preparedQuery((db, p: AuthorStatsRow) =>
  movedStats(db, p).returning([
    sql<number>`CAST(round(mojo * 100) AS integer)`.as('after_h'),
    sql<number>`CAST(round(mojo_score(received_ratings_count - ${p.ratingsCount}, received_ratings_sum - ${p.ratingsSum},
      received_comments_count - ${p.comments}, received_visits - ${p.visits}, followers_count - ${p.followers}) * 100) AS integer)`.as('before_h'),
  ]));

/** Why mojo moved, for the ledger (docs/mojo.md, The ledger). */
export interface MojoReason {
  cause: MojoCause;
  at: string;
  postId?: number | null;
  /** The rater, commenter or follower; never the reader behind a visit. */
  actorId?: number | null;
}

/** Whether the delta moves one of mojo's inputs (posts and follows given do not). */
export function movesMojo(d: AuthorStatsDelta): boolean {
  return Boolean(d.visits || d.ratingsCount || d.ratingsSum || d.comments || d.followers);
}

/** The ledger's event, in hundredths (migrations/0012_mojo_ledger.ts). */
const insertEvent = preparedQuery((db, p: { userId: number; at: string; delta: number; mojoAfter: number } & Required<MojoReason>) =>
  db.insertInto('mojo_events').values({
    user_id: p.userId, at: p.at, delta: p.delta, mojo_after: p.mojoAfter, cause: p.cause, post_id: p.postId, actor_id: p.actorId,
  }));

export async function addToAuthorStats(trx: DB, userId: number, delta: AuthorStatsDelta, reason?: MojoReason): Promise<void> {
  const row = {
    userId, posts: delta.posts ?? 0, visits: delta.visits ?? 0, ratingsCount: delta.ratingsCount ?? 0,
    ratingsSum: delta.ratingsSum ?? 0, comments: delta.comments ?? 0, followers: delta.followers ?? 0,
    following: delta.following ?? 0,
  };
  if (!movesMojo(row)) {
    await addToStats.changed(trx, row);
    return;
  }
  if (!reason) throw new Error('a change of mojo needs its cause, for the ledger');
  const mojo = await addToStatsReturningMojo.first(trx, row);
  if (!mojo) return; // the user is gone
  const [after, before] = [Number(mojo.after_h), Number(mojo.before_h)];
  // No event when the rounded mojo did not move: a sum of zeros is zero.
  if (after === before) return;
  await insertEvent.changed(trx, {
    userId, at: reason.at, delta: after - before, mojoAfter: after,
    cause: reason.cause, postId: reason.postId ?? null, actorId: reason.actorId ?? null,
  });
}

/** Rows per statement: 8 parameters each stays far below either database's limit. */
const MANY_BATCH = 500;

/**
 * The same change as addToAuthorStats for many users at once, each by their own delta: one
 * UPDATE … FROM (VALUES …) per 500 users, on both databases (whose VALUES columns are both named
 * column1, column2, …). PostgreSQL types the parameters by the casts. One row per user: a user
 * given twice would be moved once.
 */
export async function addToManyAuthorStats(trx: DB, rows: AuthorStatsRow[], reason: Omit<MojoReason, 'postId'>): Promise<void> {
  for (let at = 0; at < rows.length; at += MANY_BATCH) {
    const values = sql.join(rows.slice(at, at + MANY_BATCH).map((r) => sql`(${sql.join(
      [r.userId, r.posts, r.visits, r.ratingsCount, r.ratingsSum, r.comments, r.followers, r.following]
        .map((n) => sql`CAST(${n} AS integer)`))})`));
    await sql`UPDATE users SET
        posts_count = users.posts_count + d.column2,
        received_visits = users.received_visits + d.column3,
        received_ratings_count = users.received_ratings_count + d.column4,
        received_ratings_sum = users.received_ratings_sum + d.column5,
        received_comments_count = users.received_comments_count + d.column6,
        followers_count = users.followers_count + d.column7,
        following_count = users.following_count + d.column8,
        mojo = mojo_score(users.received_ratings_count + d.column4, users.received_ratings_sum + d.column5,
          users.received_comments_count + d.column6, users.received_visits + d.column3, users.followers_count + d.column7),
        received_average_rating = mean_rating(users.received_ratings_sum + d.column5, users.received_ratings_count + d.column4)
      FROM (VALUES ${values}) AS d
      WHERE users.id = d.column1`.execute(trx);
    // The ledger's events for the same users, as addToAuthorStats writes one.
    await sql`INSERT INTO mojo_events (user_id, at, delta, mojo_after, cause, post_id, actor_id)
      SELECT m.id, CAST(${reason.at} AS text), m.after_h - m.before_h, m.after_h, CAST(${reason.cause} AS text), NULL,
        CAST(${reason.actorId ?? null} AS integer)
      FROM (SELECT users.id, CAST(round(users.mojo * 100) AS integer) AS after_h,
          CAST(round(mojo_score(users.received_ratings_count - d.column4, users.received_ratings_sum - d.column5,
            users.received_comments_count - d.column6, users.received_visits - d.column3, users.followers_count - d.column7) * 100) AS integer) AS before_h
        FROM users JOIN (VALUES ${values}) AS d ON users.id = d.column1) AS m
      WHERE m.after_h <> m.before_h
      ORDER BY m.id`.execute(trx);
  }
}
