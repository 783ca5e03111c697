// Following authors: the follow itself, both users' counters and the followee's notice, together.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Page } from '../http.ts';
import { notifiedRecently, notify } from '../notifications/notifications.service.ts';
import type { DB, UserRow } from '../schema.ts';
import { adjustAuthorStats, type AuthorStatsChange } from '../users/author-stats.service.ts';
import { findUser, isFollowing } from '../users/users.service.ts';
import { toPublicUser, type PublicUser } from '../users/users.view.ts';
import {
  deleteFollow, deleteFollowsOf, insertFollow, listAllFollows, listFollowIds, listFollowPage, listFollowedAmong,
  listRemoteFollowerPage, type FollowDirection,
} from './follows.repo.ts';

export const FOLLOW_SIGN_IN = 'You must sign in to follow users';
export const CANNOT_FOLLOW_SELF = 'You cannot follow yourself';
const NOTICE_SUBJECT = 'New follower';
/** Unfollowing and following again within this window does not notify the followee again. */
const NOTICE_QUIET_MS = 24 * 60 * 60_000;

export interface FollowResult {
  message: string;
  following: boolean;
  followers_count: number;
}

export type FollowAction = 'follow' | 'unfollow' | 'toggle';

/**
 * Follows, unfollows or toggles. Idempotent: following someone already followed (or unfollowing
 * someone not followed) changes nothing and says so; counters move only with a row.
 */
export async function changeFollow(
  ctx: AppContext, follower: UserRow, followeeId: number, action: FollowAction,
): Promise<FollowResult> {
  if (follower.id === followeeId) throw badRequest(CANNOT_FOLLOW_SELF);
  return ctx.db.transaction().execute(async (trx) => {
    const followee = await findUser(trx, followeeId);
    // An account waiting for approval is nobody's to follow yet (DESIGN.md, Registration).
    if (!followee || followee.pending) throw notFound('User not found');
    const follow = action === 'toggle' ? !await isFollowing(trx, follower.id, followeeId) : action === 'follow';
    const name = followee.username;
    if (follow) {
      const added = await insertFollow(trx, follower.id, followeeId, nowIso());
      if (added) await recordFollow(trx, follower, followeeId, 1, ctx.config.mail !== null);
      return result(trx, followeeId, true,
        added ? `You are now following ${name}` : `You are already following ${name}`);
    }
    const removed = await deleteFollow(trx, follower.id, followeeId);
    if (removed) await recordFollow(trx, follower, followeeId, -1, false);
    return result(trx, followeeId, false, removed ? `Unfollowed ${name}` : `You are not following ${name}`);
  });
}

async function recordFollow(trx: DB, follower: UserRow, followeeId: number, delta: 1 | -1, mail: boolean): Promise<void> {
  // Both rows in ascending id order: two users following each other at the same moment would
  // otherwise each hold the row the other waits for, a deadlock on PostgreSQL (issue 27).
  const moves = [
    { id: followeeId, move: () => adjustAuthorStats(trx, followeeId, { followers: delta }, {
      cause: delta > 0 ? 'follower_new' : 'follower_lost', at: nowIso(), actorId: follower.id,
    }) },
    { id: follower.id, move: () => adjustAuthorStats(trx, follower.id, { following: delta }) },
  ].sort((a, b) => a.id - b.id);
  for (const { move } of moves) await move();
  if (delta < 0) return;
  if (await notifiedRecently(trx, followeeId, follower.id, NOTICE_SUBJECT, NOTICE_QUIET_MS)) return;
  await notify(trx, {
    userId: followeeId,
    type: 'other',
    subject: NOTICE_SUBJECT,
    message: `${follower.username} started following you`,
    actor: { id: follower.id, username: follower.username },
    mail: mail ? { kind: 'follower' } : undefined,
  });
}

async function result(trx: DB, followeeId: number, following: boolean, message: string): Promise<FollowResult> {
  const followee = await findUser(trx, followeeId);
  return { message, following, followers_count: followee?.followers_count ?? 0 };
}

export type FollowListItem = PublicUser & { followed_at: string };

/**
 * A page of followers or followed users, newest follow first. `total` is the counter on the
 * user row, kept in step with the follows table by every follow and unfollow.
 */
export async function listFollows(
  ctx: AppContext, direction: FollowDirection, user: UserRow, page: Page, reader: UserRow | undefined,
): Promise<{ items: FollowListItem[]; total: number }> {
  const rows = await listFollowPage(ctx.db, direction, user.id, page);
  const followed = reader ? await listFollowedAmong(ctx.db, reader.id, rows.map((r) => r.id)) : undefined;
  const items = rows.map((row) => {
    const item: FollowListItem = { ...toPublicUser(row), followed_at: row.followed_at };
    if (reader && followed) item.is_following = followed.has(row.id);
    return item;
  });
  return { items, total: direction === 'followers' ? user.followers_count : user.following_count };
}

/** A follower on another server, as the profile's follower list shows them (DESIGN.md, The fediverse). */
export interface RemoteFollower {
  /** `@user@server`. */
  handle: string;
  name: string;
  /** Their profile page, or their actor's id. */
  url: string;
  avatar: string | null;
}

/** A page of the user's followers elsewhere, newest first; `total` is the counter the inbox keeps. */
export async function listRemoteFollowers(ctx: AppContext, user: UserRow, page: Page): Promise<{ items: RemoteFollower[]; total: number }> {
  const rows = await listRemoteFollowerPage(ctx.db, user.id, page);
  return {
    items: rows.map((row) => ({ handle: `@${row.handle}`, name: row.name, url: row.url ?? row.uri, avatar: row.avatar_url })),
    total: user.remote_followers_count,
  };
}

/**
 * Removes every follow the user takes part in (their account is being removed), and returns
 * what that takes from the others: a follower from each user they followed, a followed user from
 * each of their followers; the caller applies it in the same transaction.
 */
export async function removeFollowsOf(trx: DB, userId: number): Promise<AuthorStatsChange[]> {
  const followed = await listFollowIds(trx, 'following', userId);
  const followers = await listFollowIds(trx, 'followers', userId);
  await deleteFollowsOf(trx, userId);
  return [
    ...followed.map((id) => ({ userId: id, followers: -1 })),
    ...followers.map((id) => ({ userId: id, following: -1 })),
  ];
}

export interface FollowEntry {
  id: number;
  username: string;
  followed_at: string;
}

/** Everyone the user follows, or everyone following them, newest follow first. */
export function allFollows(db: DB, direction: FollowDirection, userId: number): Promise<FollowEntry[]> {
  return listAllFollows(db, direction, userId);
}
