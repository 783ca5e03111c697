// Moderation rules (SPEC §6, DESIGN.md Bans): shared by the admin API and the admin CLI.
// The actor is the admin acting, or null for the operator at the CLI. No admin acts on
// themself, nor on another admin except to demote them; the last admin cannot be demoted.
import { utcDateTime } from '../../shared/dates.ts';
import {
  BAN_DAYS_MAX, BAN_DAYS_MIN, BAN_LENGTH_MESSAGE, BAN_REASON_LENGTH_MESSAGE, BAN_REASON_MAX, DELETE_REASON_LENGTH_MESSAGE,
  DELETE_REASON_MAX, DELETE_REASON_REQUIRED, INCOMPLETE_MESSAGE, NOTIFICATION_MESSAGE_LENGTH_MESSAGE, NOTIFICATION_MESSAGE_MAX,
  NOTIFICATION_SUBJECT_LENGTH_MESSAGE, NOTIFICATION_SUBJECT_MAX,
} from '../../shared/moderation.ts';
import { plural } from '../../shared/plural.ts';
import type { AppContext } from '../context.ts';
import { dialectOf, nowIso } from '../db.ts';
import { badRequest, forbidden, conflict, notFound } from '../errors.ts';
import type { Page } from '../http.ts';
import { recordModeration } from '../moderation/moderation.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import { lockAdminsAndAccount } from '../postgres/postgres.locks.ts';
import { listPostPage, type PostFilter, type PostPage } from '../posts/posts.service.ts';
import { removePost } from '../posts/posts.write.service.ts';
import { closeReportsOn, closeReportsOnAuthor } from '../reports/reports.service.ts';
import type { DB, UserRow } from '../schema.ts';
import { activeBan } from '../users/users.bans.ts';
import { usernameKey } from '../users/users.names.ts';
import { findUser, findUserByKey } from '../users/users.service.ts';
import { toPrivateUser, type PrivateUser } from '../users/users.view.ts';
import {
  clearUserBan, countActivePosts, countAdminUsers, countAdmins, countBannedUsers,
  listAdminUsers, listBannedUsers, updateUserBan, updateUserLevel, type AdminUserFilter,
} from './admin.repo.ts';
import { type BanRequest, type LevelChange, type NotificationRequest } from './admin.input.ts';
import { formatTimeRemaining, secondsUntil } from './admin.time.ts';

export type Actor = Pick<UserRow, 'id' | 'username'> | null;

export const USER_NOT_FOUND = 'User not found';
export const STILL_PENDING_MESSAGE = 'This account is waiting for approval: approve or reject it in the Pending tab first';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// The admin screen computes ban_until from a days field (1–365); the slack absorbs clocks and rounding.
export const BAN_MIN_MS = 23 * HOUR_MS;
export const BAN_MAX_MS = 366 * DAY_MS;

/** The account an admin acts on; one waiting for approval is the Pending tab's to decide first
 * (a ban or a promotion would name it in the public moderation log). */
async function existingUser(db: DB, id: number): Promise<UserRow> {
  const user = await findUser(db, id);
  if (!user) throw notFound(USER_NOT_FOUND);
  if (user.pending) throw conflict(STILL_PENDING_MESSAGE);
  return user;
}

export async function findUserByName(ctx: AppContext, username: string): Promise<UserRow> {
  const user = await findUserByKey(ctx.db, usernameKey(username.trim()));
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

export async function listUsers(ctx: AppContext, filter: AdminUserFilter, page: Page): Promise<{ users: PrivateUser[]; total: number }> {
  // Folded as username keys are; emails are stored lower-cased already.
  const search = usernameKey(filter.search?.trim() ?? '');
  const clean = { ...filter, search: search ? search : undefined };
  const [rows, total] = await Promise.all([listAdminUsers(ctx.db, clean, page), countAdminUsers(ctx.db, clean)]);
  const now = new Date();
  return { users: rows.map((row) => toPrivateUser(row, now)), total };
}

export async function adminStats(ctx: AppContext): Promise<{ total_users: number; active_posts: number; banned_users: number }> {
  const [users, posts, banned] = await Promise.all([
    countAdminUsers(ctx.db, {}), countActivePosts(ctx.db), countBannedUsers(ctx.db, nowIso()),
  ]);
  return { total_users: users, active_posts: posts, banned_users: banned };
}

export async function changeUserLevel(ctx: AppContext, actor: Actor, change: LevelChange): Promise<{ message: string; user: PrivateUser }> {
  const user = await ctx.db.transaction().execute(async (trx) => {
    // The admins counted below stay admins until this commits (an admin deleting their account counts them too).
    if (dialectOf(trx) === 'postgres') await lockAdminsAndAccount(trx, change.userId);
    const target = await existingUser(trx, change.userId);
    if (actor && actor.id === target.id) throw badRequest('You cannot change your own level');
    if (target.level === change.level) {
      throw badRequest(change.level === 'admin' ? 'User is already an admin' : 'User is already a regular user');
    }
    if (change.level === 'admin' && activeBan(target)) throw badRequest('A banned user cannot be promoted to admin');
    if (change.level === 'user' && await countAdmins(trx) <= 1) throw badRequest('The last administrator cannot be demoted');
    const updated = await updateUserLevel(trx, target.id, change.level);
    await recordModeration(trx, {
      adminId: actor?.id ?? null, action: change.level === 'admin' ? 'promote' : 'demote', targetUserId: target.id,
    });
    return updated;
  });
  const message = change.level === 'admin' ? 'User successfully promoted to admin' : 'User successfully demoted to user';
  return { message, user: toPrivateUser(user) };
}

/** Whole days a ban runs, as the admin screen's days field had it. */
export function banDays(until: Date, now: Date): number {
  return Math.min(BAN_DAYS_MAX, Math.max(BAN_DAYS_MIN, Math.round((until.getTime() - now.getTime()) / DAY_MS)));
}

export async function banUser(
  ctx: AppContext, actor: Actor, ban: BanRequest, now = new Date(),
): Promise<{ message: string; user: PrivateUser }> {
  if (ban.reason === '' || (!ban.permanent && ban.until === null)) throw badRequest(INCOMPLETE_MESSAGE);
  if (ban.reason.length > BAN_REASON_MAX) throw badRequest(BAN_REASON_LENGTH_MESSAGE);
  const until = ban.permanent ? null : ban.until!;
  if (until) {
    const ms = until.getTime() - now.getTime();
    if (ms < BAN_MIN_MS || ms > BAN_MAX_MS) throw badRequest(BAN_LENGTH_MESSAGE);
  }
  const days = until ? banDays(until, now) : 0;
  const user = await ctx.db.transaction().execute(async (trx) => {
    const target = await existingUser(trx, ban.userId);
    if (actor && actor.id === target.id) throw badRequest('You cannot ban yourself');
    if (target.level === 'admin') throw forbidden('Administrators cannot be banned');
    // A new ban replaces any earlier one.
    const updated = await updateUserBan(trx, target.id, {
      banned_at: now.toISOString(),
      ban_permanent: until ? 0 : 1,
      ban_until: until ? until.toISOString() : null,
      ban_reason: ban.reason,
      banned_by: actor?.id ?? null,
    });
    await notify(trx, {
      userId: target.id,
      type: 'ban_notice',
      subject: 'Your account has been suspended',
      message: until
        ? `Your account has been suspended for ${plural(days, 'day')}, until ${utcDateTime(until)}. Reason: ${ban.reason}`
        : `Your account has been permanently suspended. Reason: ${ban.reason}`,
      actor: actor ?? undefined,
    });
    await closeReportsOnAuthor(trx, target.id, actor);
    await recordModeration(trx, {
      adminId: actor?.id ?? null, action: 'ban', targetUserId: target.id, reason: ban.reason, banUntil: until?.toISOString() ?? null,
    });
    return updated;
  });
  // SPEC §8's toast, word for word: 'User banned for N days' (also for N = 1).
  const message = until ? `User banned for ${days} days` : 'User permanently banned successfully';
  return { message, user: toPrivateUser(user, now) };
}

export async function unbanUser(ctx: AppContext, actor: Actor, userId: number): Promise<{ message: string; user: PrivateUser }> {
  const user = await ctx.db.transaction().execute(async (trx) => {
    const target = await existingUser(trx, userId);
    if (!activeBan(target)) throw badRequest('User is not banned');
    const updated = await clearUserBan(trx, target.id);
    await recordModeration(trx, { adminId: actor?.id ?? null, action: 'unban', targetUserId: target.id });
    return updated;
  });
  return { message: 'User unbanned successfully', user: toPrivateUser(user) };
}

export interface BannedUser {
  id: number;
  username: string;
  email: string;
  ban_permanent: boolean;
  ban_reason: string | null;
  ban_until: string | null;
  banned_at: string | null;
  /** The admin's username; null when banned from the CLI or the admin is gone. */
  banned_by: string | null;
  time_remaining: string;
  time_remaining_seconds: number | null;
}

export async function listBanned(ctx: AppContext, page: Page, now = new Date()): Promise<{ banned_users: BannedUser[]; total: number }> {
  const at = now.toISOString();
  const [rows, total] = await Promise.all([listBannedUsers(ctx.db, at, page), countBannedUsers(ctx.db, at)]);
  return {
    banned_users: rows.map((row) => {
      const seconds = row.ban_permanent ? null : secondsUntil(row.ban_until, now);
      return {
        ...row,
        ban_permanent: row.ban_permanent === 1,
        ban_until: row.ban_permanent ? null : row.ban_until,
        time_remaining: formatTimeRemaining(seconds),
        time_remaining_seconds: seconds,
      };
    }),
    total,
  };
}

export async function sendNotification(ctx: AppContext, actor: Actor, request: NotificationRequest): Promise<{ message: string }> {
  if (request.subject === '' || request.message === '') throw badRequest(INCOMPLETE_MESSAGE);
  if (request.subject.length > NOTIFICATION_SUBJECT_MAX) throw badRequest(NOTIFICATION_SUBJECT_LENGTH_MESSAGE);
  if (request.message.length > NOTIFICATION_MESSAGE_MAX) throw badRequest(NOTIFICATION_MESSAGE_LENGTH_MESSAGE);
  await ctx.db.transaction().execute(async (trx) => {
    const target = await existingUser(trx, request.userId);
    await notify(trx, {
      userId: target.id, type: 'general', subject: request.subject, message: request.message, actor: actor ?? undefined,
    });
    await recordModeration(trx, { adminId: actor?.id ?? null, action: 'notify', targetUserId: target.id, reason: request.subject });
  });
  return { message: 'Notification sent successfully' };
}

export type PostStatus = 'all' | 'active' | 'archived';

/** Every article, newest first: search in titles and authors' names, by status. */
export function listPostsForAdmin(ctx: AppContext, search: string | undefined, status: PostStatus, page: Page): Promise<PostPage> {
  const filter: PostFilter = {
    titleOrAuthor: search ? search : undefined,
    archived: status === 'all' ? undefined : status === 'archived',
  };
  return listPostPage(ctx, filter, 'newest', page);
}

export const DRAFTS_ARE_THE_AUTHORS = 'Only its author can delete a draft';

/** Removes an article with a reason: its author is told why, its reports are closed (each reporter
 * told), and the moderation log keeps it. */
export async function deletePostWithReason(ctx: AppContext, admin: UserRow, postId: number, reason: string): Promise<{ message: string }> {
  if (!reason) throw badRequest(DELETE_REASON_REQUIRED);
  if (reason.length > DELETE_REASON_MAX) throw badRequest(DELETE_REASON_LENGTH_MESSAGE);
  await removePost(ctx, postId, async (trx, post) => {
    // A draft was never published: there is nothing to moderate, and the log would make its title public.
    if (post.status === 'draft') throw forbidden(DRAFTS_ARE_THE_AUTHORS);
    if (post.author_id !== admin.id) {
      await notify(trx, {
        userId: post.author_id,
        type: 'post_deleted',
        subject: 'Your article was removed',
        message: `An administrator removed your article "${post.title}". Reason: ${reason}`,
        actor: { id: admin.id, username: admin.username },
        post: { id: null, title: post.title },
      });
    }
    await closeReportsOn(trx, { type: 'post', id: post.id }, 'deleted', admin);
    await recordModeration(trx, {
      adminId: admin.id, action: 'delete_post', targetUserId: post.author_id,
      post: { id: post.id, title: post.title }, reason,
    });
  });
  return { message: 'Post deleted successfully' };
}
