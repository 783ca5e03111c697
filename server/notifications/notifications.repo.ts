// SQL for the notifications table. Pages read the notifications_user index, unread pages and
// counts the partial notifications_user_unread index (its `read = 0` must be literal SQL).
import { sql } from 'kysely';
import { nowIso } from '../db.ts';
import type { Page } from '../http.ts';
import type { DB, MailItemKind, NotificationsTable, NotificationType } from '../schema.ts';
import type { Insertable } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  subject: string;
  message: string;
  /** The acting user, when there is one; their username is kept with the notification. */
  actor?: { id: number; username: string };
  post?: { id: number | null; title: string };
  /** Set, when mail is on, for an act the user may also be mailed of (server/mail-notices/). */
  mail?: { kind: MailItemKind; commentId?: number };
}

type NotificationValues = Omit<Insertable<NotificationsTable>, 'id' | 'read'>;

const insert = preparedQuery((db, p: Required<NotificationValues>) =>
  db.insertInto('notifications').values({
    user_id: p.user_id, type: p.type, subject: p.subject, message: p.message, created_by_id: p.created_by_id,
    created_by: p.created_by, post_id: p.post_id, post_title: p.post_title, created_at: p.created_at,
  }).returning('id'));

/** The same insert, left out when the reader muted its actor (DESIGN.md, Mutes): one statement,
 * the mute looked up by user_mutes' primary key. Casts type the parameters for PostgreSQL. */
const insertUnlessMuted = preparedQuery((db, p: Required<NotificationValues> & { actor_id: number }) =>
  db.insertInto('notifications')
    .columns(['user_id', 'type', 'subject', 'message', 'created_by_id', 'created_by', 'post_id', 'post_title', 'created_at'])
    .expression(db.selectNoFrom([
      sql<number>`CAST(${p.user_id} AS integer)`.as('user_id'), sql<NotificationType>`CAST(${p.type} AS text)`.as('type'),
      sql<string>`CAST(${p.subject} AS text)`.as('subject'), sql<string>`CAST(${p.message} AS text)`.as('message'),
      sql<number>`CAST(${p.actor_id} AS integer)`.as('created_by_id'), sql<string>`CAST(${p.created_by} AS text)`.as('created_by'),
      sql<number | null>`CAST(${p.post_id} AS integer)`.as('post_id'), sql<string | null>`CAST(${p.post_title} AS text)`.as('post_title'),
      sql<string>`CAST(${p.created_at} AS text)`.as('created_at'),
    ]).where(({ not, exists, selectFrom }) => not(exists(selectFrom('user_mutes').select('user_mutes.user_id')
      .where('user_mutes.user_id', '=', p.user_id).where('user_mutes.muted_user_id', '=', p.actor_id))))));

/** Leaves a notice of what `actor` did unless its reader muted them; true when it was left. */
export async function insertNotificationUnlessMuted(trx: DB, n: NewNotification & { actor: { id: number; username: string } }): Promise<boolean> {
  const result = await insertUnlessMuted.changed(trx, {
    user_id: n.userId, type: n.type, subject: n.subject, message: n.message, actor_id: n.actor.id,
    created_by_id: n.actor.id, created_by: n.actor.username,
    post_id: n.post?.id ?? null, post_title: n.post?.title ?? null, created_at: nowIso(),
  });
  return result > 0n;
}

export async function insertNotification(trx: DB, n: NewNotification): Promise<number> {
  const row = await insert.first(trx, {
    user_id: n.userId, type: n.type, subject: n.subject, message: n.message,
    created_by_id: n.actor?.id ?? null, created_by: n.actor?.username ?? null,
    post_id: n.post?.id ?? null, post_title: n.post?.title ?? null, created_at: nowIso(),
  });
  return row!.id;
}

/** A notification as listed: created_by is the actor's current username (the stored one if the actor is gone). */
export interface NotificationListRow {
  id: number;
  type: NotificationType;
  subject: string;
  message: string;
  read: number;
  created_at: string;
  created_by: string | null;
  post_id: number | null;
  post_title: string | null;
}

/** The page query, newest first; exported so a test can check its plan. */
export function notificationsPageQuery(db: DB, userId: number, unreadOnly: boolean, page: Page) {
  let query = db.selectFrom('notifications as n')
    .leftJoin('users as actor', 'actor.id', 'n.created_by_id')
    .select(['n.id', 'n.type', 'n.subject', 'n.message', 'n.read', 'n.created_at', 'n.post_id', 'n.post_title'])
    .select(sql<string | null>`coalesce(actor.username, n.created_by)`.as('created_by'))
    .where('n.user_id', '=', userId);
  if (unreadOnly) query = query.where('n.read', '=', sql.lit(0));
  return query.orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(page.limit).offset(page.skip);
}

export function listNotifications(db: DB, userId: number, unreadOnly: boolean, page: Page): Promise<NotificationListRow[]> {
  return notificationsPageQuery(db, userId, unreadOnly, page).execute();
}

export async function countNotifications(db: DB, userId: number, unreadOnly: boolean): Promise<number> {
  let query = db.selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId);
  if (unreadOnly) query = query.where('read', '=', sql.lit(0));
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks one of the user's notifications read; false when the user has no such notification. */
export async function updateNotificationRead(db: DB, userId: number, id: number): Promise<boolean> {
  const result = await db.updateTable('notifications')
    .set({ read: 1 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateAllNotificationsRead(db: DB, userId: number): Promise<number> {
  const result = await db.updateTable('notifications')
    .set({ read: 1 })
    .where('user_id', '=', userId)
    .where('read', '=', sql.lit(0))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether `actorId` already caused an 'other' notice with this subject for `userId` since then. */
export async function findNoticeFromActorSince(
  db: DB, userId: number, actorId: number, subject: string, since: string,
): Promise<boolean> {
  const row = await db.selectFrom('notifications').select('id')
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('created_by_id', '=', actorId)
    .where('type', '=', 'other')
    .where('subject', '=', subject)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The user's own notifications, and the notices of their follows and comments left with others. */
export async function deleteNotificationsOf(trx: DB, userId: number): Promise<void> {
  await trx.deleteFrom('notifications').where('user_id', '=', userId).execute();
  await trx.deleteFrom('notifications').where('created_by_id', '=', userId).where('type', '=', 'other').execute();
}

/** Every notification of the user, newest first (their data export). */
export function listAllNotifications(db: DB, userId: number): Promise<NotificationListRow[]> {
  return db.selectFrom('notifications as n')
    .leftJoin('users as actor', 'actor.id', 'n.created_by_id')
    .select(['n.id', 'n.type', 'n.subject', 'n.message', 'n.read', 'n.created_at', 'n.post_id', 'n.post_title'])
    .select(sql<string | null>`coalesce(actor.username, n.created_by)`.as('created_by'))
    .where('n.user_id', '=', userId)
    .orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').execute();
}
