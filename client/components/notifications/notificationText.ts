// Texts of the notifications page, pure for unit tests.
import { plural } from '../../format.ts';

export const LOAD_MORE_NOTICE = 'Loading older notifications is coming soon.';

/** The line under the page heading: the unread count, or being up to date. */
export function unreadHeadline(unread: number): string {
  if (unread <= 0) return "You're all caught up";
  return `You have ${plural(unread, 'unread notification')}`;
}
