// How a notification is shown to its owner (SPEC §3).
import type { NotificationType } from '../schema.ts';
import type { NotificationListRow } from './notifications.repo.ts';

export interface Notification {
  id: number;
  type: NotificationType;
  subject: string;
  message: string;
  read: boolean;
  created_at: string;
  /** The actor's username; null for notifications from the system or the admin CLI. */
  created_by: string | null;
  /** Null when the notification is not about a post, or the post was deleted. */
  post_id: number | null;
  post_title: string | null;
}

export function toNotification(row: NotificationListRow): Notification {
  return {
    id: row.id,
    type: row.type,
    subject: row.subject,
    message: row.message,
    read: row.read === 1,
    created_at: row.created_at,
    created_by: row.created_by,
    post_id: row.post_id,
    post_title: row.post_title,
  };
}
