// SQL for the follows table (and the follow notices it leaves in notifications), and for the
// follows from the fediverse (remote_followers, migrations/0022_federation.ts) a profile lists.
import type { Page } from '../http.ts';
import type { DB, UserRow } from '../schema.ts';

export type FollowDirection = 'followers' | 'following';
export type FollowListRow = UserRow & { followed_at: string };

/** Inserts the follow unless it exists; true when a row was added. */
export async function insertFollow(db: DB, followerId: number, followeeId: number, createdAt: string): Promise<boolean> {
  const row = await db.insertInto('follows')
    .values({ follower_id: followerId, followee_id: followeeId, created_at: createdAt })
    .onConflict((oc) => oc.doNothing())
    .returning('created_at')
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes the follow; true when there was one. */
export async function deleteFollow(db: DB, followerId: number, followeeId: number): Promise<boolean> {
  const row = await db.deleteFrom('follows')
    .where('follower_id', '=', followerId).where('followee_id', '=', followeeId)
    .returning('created_at')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * One page of a user's followers (or of whom they follow), newest follow first, with the listed
 * users' rows. Walks follows_followee / follows_follower in order; see the plan test.
 */
export function followPageQuery(db: DB, direction: FollowDirection, userId: number, page: Page) {
  const [self, other] = direction === 'followers'
    ? ['follows.followee_id', 'follows.follower_id'] as const
    : ['follows.follower_id', 'follows.followee_id'] as const;
  return db.selectFrom('follows')
    .innerJoin('users', 'users.id', other)
    .selectAll('users')
    .select('follows.created_at as followed_at')
    .where(self, '=', userId)
    .orderBy('follows.created_at', 'desc')
    .orderBy(other, 'desc')
    .limit(page.limit)
    .offset(page.skip);
}

export function listFollowPage(db: DB, direction: FollowDirection, userId: number, page: Page): Promise<FollowListRow[]> {
  return followPageQuery(db, direction, userId, page).execute();
}

/** Which of `ids` the follower follows: one primary-key probe per id, in one query. */
export async function listFollowedAmong(db: DB, followerId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('follows').select('followee_id')
    .where('follower_id', '=', followerId).where('followee_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.followee_id));
}

/** The ids of the users `userId` follows, or of those following them. */
export async function listFollowIds(db: DB, direction: FollowDirection, userId: number): Promise<number[]> {
  const rows = direction === 'followers'
    ? await db.selectFrom('follows').select('follower_id as id').where('followee_id', '=', userId).execute()
    : await db.selectFrom('follows').select('followee_id as id').where('follower_id', '=', userId).execute();
  return rows.map((row) => row.id);
}

/** Every follow the user takes part in, both ways. */
export async function deleteFollowsOf(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('follows').where('follower_id', '=', userId).execute();
  await db.deleteFrom('follows').where('followee_id', '=', userId).execute();
}

/** All of a user's followers (or followed users) by name, newest follow first (their data export). */
export function listAllFollows(db: DB, direction: FollowDirection, userId: number) {
  const [self, other] = direction === 'followers'
    ? ['follows.followee_id', 'follows.follower_id'] as const
    : ['follows.follower_id', 'follows.followee_id'] as const;
  return db.selectFrom('follows').innerJoin('users', 'users.id', other)
    .select(['users.id', 'users.username', 'follows.created_at as followed_at'])
    .where(self, '=', userId)
    .orderBy('follows.created_at', 'desc').orderBy(other, 'desc').execute();
}

export interface RemoteFollowerRow {
  handle: string;
  name: string;
  url: string | null;
  uri: string;
  avatar_url: string | null;
  created_at: string;
}

/** One page of a user's followers on other servers, newest first: remote_followers_user_created walked from the top. */
export function remoteFollowerPageQuery(db: DB, userId: number, page: Page) {
  return db.selectFrom('remote_followers')
    .innerJoin('remote_actors', 'remote_actors.id', 'remote_followers.actor_id')
    .select(['remote_actors.handle', 'remote_actors.name', 'remote_actors.url', 'remote_actors.uri', 'remote_actors.avatar_url',
      'remote_followers.created_at'])
    .where('remote_followers.user_id', '=', userId)
    .orderBy('remote_followers.created_at', 'desc')
    .orderBy('remote_followers.actor_id', 'desc')
    .limit(page.limit)
    .offset(page.skip);
}

export function listRemoteFollowerPage(db: DB, userId: number, page: Page): Promise<RemoteFollowerRow[]> {
  return remoteFollowerPageQuery(db, userId, page).execute();
}
