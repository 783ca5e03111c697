// `mention` notifications (DESIGN.md, Writing): 'X mentioned you in Y', left in the transaction
// of the article or comment that mentions, to at most 10 users a text. Never to the writer, to
// a user who muted the writer, for a draft, or, after an edit, to a name the text had before.
import type { MentionedUser } from '../markdown/markdown.mentions.ts';
import type { DB } from '../schema.ts';
import { notify } from './notifications.service.ts';

/** The most users one text notifies. */
export const MENTIONS_NOTIFIED = 10;

export interface MentionNotice {
  writer: { id: number; username: string };
  /** The users the text mentions now, in order (server/markdown/). */
  mentioned: readonly MentionedUser[];
  /** The lower-cased names the text mentioned before an edit: they were told already. */
  before?: readonly string[];
  /** The article the text is, or is a comment on. */
  post: { id: number; title: string };
  /** Mail is on: the mentioned may be mailed too (server/mail-notices/). */
  mail: boolean;
}

export async function notifyMentions(trx: DB, { writer, mentioned, before = [], post, mail }: MentionNotice): Promise<void> {
  const told = new Set(before);
  let left = 0;
  for (const user of mentioned) {
    if (left === MENTIONS_NOTIFIED) return;
    if (user.id === writer.id || told.has(user.username.toLowerCase())) continue;
    // Not left for a user who muted the writer (notify): the next one named takes the place.
    const notified = await notify(trx, {
      userId: user.id,
      type: 'mention',
      subject: 'New mention',
      message: `${writer.username} mentioned you in "${post.title}"`,
      actor: writer,
      post,
      mail: mail ? { kind: 'mention' } : undefined,
    });
    if (notified) left += 1;
  }
}
