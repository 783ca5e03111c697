// A user's own notifications: listing and marking read. Other features create them with
// `notify` inside their own transactions.
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Page } from '../http.ts';
import type { DB, UserRow } from '../schema.ts';
import {
  countNotifications, deleteNotificationsOf, findNoticeFromActorSince, insertNotification, insertNotificationUnlessMuted, listAllNotifications,
  listNotifications, updateAllNotificationsRead, updateNotificationRead, type NewNotification,
} from './notifications.repo.ts';
import { toNotification, type Notification } from './notifications.view.ts';
import { noteForMail } from '../mail-notices/mail-notices.batch.ts';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/** What another user did that a reader who muted them is not told of (DESIGN.md, Mutes). */
const FROM_A_USER: ReadonlySet<NewNotification['type']> = new Set(['other', 'mention']);

/**
 * Leaves a notification for `n.userId`; call it inside the transaction of what it tells. A reader's
 * notice of what another user did ('other': a comment, a follow; 'mention') is not left when the
 * reader muted that user; what admins send and reports' outcomes always are. True when it was left.
 * With `n.mail` (mail on), a notice left is noted for the user's next notification mail as well.
 */
export async function notify(trx: DB, n: NewNotification): Promise<boolean> {
  if (FROM_A_USER.has(n.type) && n.actor) {
    const left = await insertNotificationUnlessMuted(trx, { ...n, actor: n.actor });
    if (left && n.mail) {
      await noteForMail(trx, n.userId, { kind: n.mail.kind, actorId: n.actor.id, postId: n.post?.id, commentId: n.mail.commentId });
    }
    return left;
  }
  await insertNotification(trx, n);
  return true;
}

/**
 * Whether `actorId` already left `userId` an 'other' notice with this subject in the last
 * `quietMs`: a repeated action (unfollow, follow again) does not notify twice.
 */
export function notifiedRecently(trx: DB, userId: number, actorId: number, subject: string, quietMs: number): Promise<boolean> {
  return findNoticeFromActorSince(trx, userId, actorId, subject, new Date(Date.now() - quietMs).toISOString());
}

export interface NotificationPage {
  notifications: Notification[];
  /** Of the filtered list (unread only, or all). */
  total: number;
  unread_count: number;
}

export async function notificationsOf(ctx: AppContext, user: UserRow, unreadOnly: boolean, page: Page): Promise<NotificationPage> {
  const [rows, total, unread] = await Promise.all([
    listNotifications(ctx.db, user.id, unreadOnly, page),
    countNotifications(ctx.db, user.id, unreadOnly),
    countNotifications(ctx.db, user.id, true),
  ]);
  return { notifications: rows.map(toNotification), total, unread_count: unread };
}

/** Idempotent; another user's notification is as unknown as a missing one (404). */
export async function markRead(ctx: AppContext, user: UserRow, id: number): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    if (!await updateNotificationRead(trx, user.id, id)) throw notFound(NOTIFICATION_NOT_FOUND);
    return countNotifications(trx, user.id, true);
  });
}

export async function markAllRead(ctx: AppContext, user: UserRow): Promise<number> {
  return updateAllNotificationsRead(ctx.db, user.id);
}

/**
 * Before an account is removed: its own notifications, and the notices its follows and comments
 * left with others (the follow or comment they tell of goes too). What an admin sent others stays
 * theirs: the sender's name stays on it as it was.
 */
export function removeNotificationsOf(trx: DB, userId: number): Promise<void> {
  return deleteNotificationsOf(trx, userId);
}

/** Every notification of the user, newest first. */
export async function allNotificationsOf(db: DB, userId: number): Promise<Notification[]> {
  return (await listAllNotifications(db, userId)).map(toNotification);
}
