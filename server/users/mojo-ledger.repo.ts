// The mojo ledger's reads: a user's events newest first, with the article's title and the
// actor's name beside each. The writes are the counters' own (users/author-stats.repo.ts).
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import type { Page } from '../http.ts';
import type { MojoCause } from '../../shared/mojo.ts';

/**
 * A ledger event. As read here `delta` and `mojo_after` are in hundredths, as the database keeps
 * them (shared/mojo.ts); on the wire, in points (users/mojo-ledger.view.ts).
 */
export interface MojoEventRow {
  id: number;
  at: string;
  /** mojo_after − the mojo before. */
  delta: number;
  mojo_after: number;
  cause: MojoCause;
  post_id: number | null;
  /** The article's title while it is listed (published, not archived); null once archived or deleted. */
  post_title: string | null;
  /** The rater, commenter or follower; null for visits (readers are never named) and for accounts since deleted. */
  actor_id: number | null;
  actor_username: string | null;
}

/** The user's events with each one's article title (while it is listed) and actor's name. */
function eventsOf(db: DB, userId: number) {
  return db.selectFrom('mojo_events as e')
    .leftJoin('posts as p', 'p.id', 'e.post_id')
    .leftJoin('users as a', 'a.id', 'e.actor_id')
    .select(['e.id', 'e.at', 'e.delta', 'e.mojo_after', 'e.cause', 'e.post_id', 'e.actor_id', 'a.username as actor_username'])
    .select(sql<string | null>`CASE WHEN p.archived = 0 AND p.status = 'published' THEN p.title ELSE NULL END`.as('post_title'))
    .where('e.user_id', '=', userId);
}

/** A page of the user's events, newest first: the index mojo_events_user walked backwards. */
export function listMojoEvents(db: DB, userId: number, page: Page): Promise<MojoEventRow[]> {
  return eventsOf(db, userId).orderBy('e.id', 'desc').limit(page.limit).offset(page.skip).execute();
}

export async function countMojoEvents(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('mojo_events').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Every event of the user, oldest first (their account's export). */
export function listAllMojoEvents(db: DB, userId: number): Promise<MojoEventRow[]> {
  return eventsOf(db, userId).orderBy('e.id', 'asc').execute();
}
