// SQL for the notifications table.
import type { DB } from '../db.ts';
import { nowIso } from '../db.ts';
import type { NotificationType } from '../schema.ts';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  subject: string;
  message: string;
  /** The acting user, when there is one; their username is kept with the notification. */
  actor?: { id: number; username: string };
  post?: { id: number | null; title: string };
}

export async function insertNotification(db: DB, n: NewNotification): Promise<number> {
  const row = await db.insertInto('notifications')
    .values({
      user_id: n.userId,
      type: n.type,
      subject: n.subject,
      message: n.message,
      created_by_id: n.actor?.id ?? null,
      created_by: n.actor?.username ?? null,
      post_id: n.post?.id ?? null,
      post_title: n.post?.title ?? null,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
