// SQL for the counters on a user row that follow from other tables, and the mojo derived from them.
import { type Compilable, type RawBuilder, sql } from 'kysely';
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

type Counter = keyof AuthorStatsDelta;

const COLUMN_OF = {
  posts: 'posts_count',
  visits: 'received_visits',
  ratingsCount: 'received_ratings_count',
  ratingsSum: 'received_ratings_sum',
  comments: 'received_comments_count',
  followers: 'followers_count',
  following: 'following_count',
} as const satisfies Record<Counter, string>;

const COUNTERS = Object.keys(COLUMN_OF) as Counter[];

/** The counters mojo is computed from (posts and follows given are not). */
const MOJO_INPUTS: readonly Counter[] = ['visits', 'ratingsCount', 'ratingsSum', 'comments', 'followers'];

/**
 * The counters move by the delta, and mojo and the average rating are computed from the moved
 * counters by mojo_score and mean_rating (mojo.formula.ts, registered by the dialect). Every
 * right-hand side reads the row as it was, hence `+ delta` inside them too. Only the columns that
 * `moved` names are set, with mojo and the average when their inputs are among them: SQLite
 * rewrites the index entry of every column a statement sets, even to the value it had, and a
 * visit then paid for the users_posts_count and users_rating entries too.
 */
const movedStats = (db: DB, p: AuthorStatsRow, moved: readonly Counter[]) => {
  const set: Record<string, RawBuilder<number>> = {};
  for (const counter of moved) set[COLUMN_OF[counter]] = sql`${sql.ref(COLUMN_OF[counter])} + ${p[counter]}`;
  if (moved.some((counter) => MOJO_INPUTS.includes(counter))) {
    set.mojo = sql`mojo_score(received_ratings_count + ${p.ratingsCount}, received_ratings_sum + ${p.ratingsSum},
      received_comments_count + ${p.comments}, received_visits + ${p.visits}, followers_count + ${p.followers})`;
  }
  if (moved.includes('ratingsCount') || moved.includes('ratingsSum')) {
    set.received_average_rating = sql`mean_rating(received_ratings_sum + ${p.ratingsSum}, received_ratings_count + ${p.ratingsCount})`;
  }
  return db.updateTable('users').set(set).where('id', '=', p.userId);
};

/** The counters a delta moves, in a fixed order: the key of its prepared statement. */
const movedBy = (row: AuthorStatsRow): Counter[] => COUNTERS.filter((counter) => row[counter] !== 0);

/** A prepared statement per set of moved counters: a handful occur (a visit, a rating, a follow, …). */
function preparedPerShape<Row>(build: (db: DB, p: AuthorStatsRow, moved: readonly Counter[]) => Compilable<Row>) {
  const byShape = new Map<string, ReturnType<typeof preparedQuery<AuthorStatsRow, Row>>>();
  return (moved: readonly Counter[]) => {
    const shape = moved.join(' ');
    let query = byShape.get(shape);
    if (!query) {
      query = preparedQuery((db, p: AuthorStatsRow) => build(db, p, moved));
      byShape.set(shape, query);
    }
    return query;
  };
}

const addToStats = preparedPerShape(movedStats);

/**
 * The same move, returning the user's mojo after and before it in hundredths, for the ledger.
 * RETURNING reads the row as written; mojo before is the formula over the counters before the
 * delta (every write sets mojo by that formula, so this is the mojo that was stored).
 */
const addToStatsReturningMojo = preparedPerShape((db, p, moved) =>
  movedStats(db, p, moved).returning([
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
  return MOJO_INPUTS.some((counter) => Boolean(d[counter]));
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
  const moved = movedBy(row);
  if (moved.length === 0) return;
  if (!movesMojo(row)) {
    await addToStats(moved).changed(trx, row);
    return;
  }
  if (!reason) throw new Error('a change of mojo needs its cause, for the ledger');
  const mojo = await addToStatsReturningMojo(moved).first(trx, row);
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
