// Notifications by mail (DESIGN.md, Mail): a comment on one's article, a new follower, a mention,
// each as the user chose in Settings, to a verified address of a user not banned, never for the act
// of someone they muted, at most one mail a quarter of an hour with what happened meanwhile.
//
// The act notes itself (noteForMail, in its own transaction): a mail_items row, and the user's
// mail_pending count moved. The act that makes the count 1 queues the batch's 'notice-mail' job, due
// a quarter of an hour after the user's last such mail (or now). The job takes the count back to 0
// and every item, checks each again (the comment still there, the follower still following, the
// actor neither muted nor banned, the kind still wanted) and writes one mail to the outbox, in one
// transaction: nothing is told twice, and nothing noted is lost.
import { htmlText } from '../../shared/html-text.ts';
import { excerpt } from '../../shared/excerpt.ts';
import { mailKindsText, type MailKind } from '../../shared/mail-kinds.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import type { JobHandler } from '../jobs/jobs.runner.ts';
import { composeMail, type MailEntry } from '../mail/mail.compose.ts';
import { mailSite } from '../site/site.service.ts';
import { queueMail } from '../mail/mail.outbox.ts';
import type { DB, MailItemKind, MailItemsTable } from '../schema.ts';
import { activeBan } from '../users/users.bans.ts';
import type { Selectable } from 'kysely';
import {
  activeUsernames, commentsWithTitles, countMailItem, insertMailItem, mutedAmong, publishedTitles, recordMailSent,
  restartMailCount, stillFollowing, takeMailItems, type ChoiceColumn,
} from './mail-notices.repo.ts';
import { unsubscribeHeaders, unsubscribeUrl } from './mail-notices.unsubscribe.ts';

export const NOTICE_MAIL_JOB = 'notice-mail';
/** The least time between two notification mails to one user. */
export const NOTICE_MAIL_QUIET_MS = 15 * 60_000;

const CHOICE: Record<MailItemKind, ChoiceColumn> = { comment: 'mail_comments', follower: 'mail_followers', mention: 'mail_mentions' };
const KIND: Record<MailItemKind, MailKind> = { comment: 'comments', follower: 'followers', mention: 'mentions' };

export interface MailNote {
  kind: MailItemKind;
  actorId: number;
  postId?: number | null;
  commentId?: number | null;
}

/** Notes an act for `userId`'s next notification mail; call it inside the act's transaction, with mail on. */
export async function noteForMail(trx: DB, userId: number, note: MailNote): Promise<void> {
  const now = new Date();
  const counted = await countMailItem(trx, userId, CHOICE[note.kind], now.toISOString());
  if (!counted) return; // not wanted, not verified, or banned
  await insertMailItem(trx, {
    user_id: userId, kind: note.kind, actor_id: note.actorId, post_id: note.postId ?? null, comment_id: note.commentId ?? null,
    created_at: now.toISOString(),
  });
  if (Number(counted.mail_pending) !== 1) return; // a batch is waiting already: this joins it
  const last = counted.mail_last_at ? Date.parse(counted.mail_last_at) : 0;
  await enqueueJob(trx, {
    kind: NOTICE_MAIL_JOB, payload: { user_id: userId }, runAt: new Date(Math.max(now.getTime(), last + NOTICE_MAIL_QUIET_MS)),
  });
}

/** The job: the user's waiting items, as one mail in the outbox. */
export function writeNoticeMail(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>): JobHandler {
  return async ({ user_id }: { user_id: number }) => {
    const site = await mailSite(ctx);
    await ctx.db.transaction().execute(async (trx) => {
      const user = await restartMailCount(trx, user_id);
      if (!user) return;
      const items = await takeMailItems(trx, user_id);
      const now = nowIso();
      if (user.email_verified !== 1 || activeBan(user)) return;
      const wanted = items.filter((item) => user[CHOICE[item.kind]] === 1);
      const entries = await describe(trx, ctx.config.publicUrl, user_id, wanted, now);
      if (entries.length === 0) return;
      const kinds = [...new Set(entries.map((e) => e.kind))];
      const unsubscribe = unsubscribeUrl(ctx.config, user_id, kinds);
      const first = entries[0]!.text;
      await queueMail(trx, {
        to: user.email,
        ...composeMail(site, {
          subject: entries.length === 1 ? first : `${first}, and ${entries.length - 1} more`,
          heading: entries.length === 1 ? 'News for you' : `${entries.length} things for you`,
          paragraphs: [`Hello ${user.username}, this happened on ${site.name}:`],
          sections: [{ entries }],
          action: { label: 'See your notifications', url: `${ctx.config.publicUrl}/notifications` },
          footer: [
            `You get this mail because you chose mail about ${mailKindsText(kinds)} in your settings: ${ctx.config.publicUrl}/settings`,
            `Stop these mails with one click: ${unsubscribe}`,
          ],
        }),
        headers: unsubscribeHeaders(unsubscribe),
      });
      await recordMailSent(trx, user_id, now);
    });
  };
}

/** The items still worth telling, as the mail's lines, oldest first. */
async function describe(
  trx: DB, publicUrl: string, userId: number, items: readonly Selectable<MailItemsTable>[], now: string,
): Promise<Array<MailEntry & { kind: MailKind }>> {
  const actorIds = [...new Set(items.map((item) => item.actor_id))];
  const ids = (kind: MailItemKind, pick: (item: Selectable<MailItemsTable>) => number | null) =>
    items.filter((item) => item.kind === kind).map(pick).filter((id): id is number => id !== null);
  const [actors, muted, followers, comments, posts] = await Promise.all([
    activeUsernames(trx, actorIds, now),
    mutedAmong(trx, userId, actorIds),
    stillFollowing(trx, userId, ids('follower', (item) => item.actor_id)),
    commentsWithTitles(trx, ids('comment', (item) => item.comment_id)),
    publishedTitles(trx, ids('mention', (item) => item.post_id)),
  ]);
  const commentById = new Map(comments.map((c) => [c.id, c]));
  const titleById = new Map(posts.map((p) => [p.id, p.title]));
  const toldFollowers = new Set<number>();
  /** actor:post of each comment told: a mention in that comment is in its line already. */
  const toldComments = new Set<string>();
  const entries: Array<MailEntry & { kind: MailKind }> = [];
  for (const item of items) {
    const actor = actors.get(item.actor_id);
    if (!actor || muted.has(item.actor_id)) continue;
    const kind = KIND[item.kind];
    if (item.kind === 'comment') {
      const comment = item.comment_id === null ? undefined : commentById.get(item.comment_id);
      if (!comment) continue;
      toldComments.add(`${item.actor_id}:${comment.post_id}`);
      entries.push({ kind, text: `${actor} commented on “${comment.title}”`, quote: excerpt(htmlText(comment.content_html), 150), url: `${publicUrl}/post/${comment.post_id}` });
    } else if (item.kind === 'follower') {
      if (!followers.has(item.actor_id) || toldFollowers.has(item.actor_id)) continue;
      toldFollowers.add(item.actor_id);
      entries.push({ kind, text: `${actor} started following you`, url: `${publicUrl}/beatnik/${encodeURIComponent(actor)}` });
    } else {
      const title = item.post_id === null ? undefined : titleById.get(item.post_id);
      if (title === undefined || toldComments.has(`${item.actor_id}:${item.post_id}`)) continue;
      entries.push({ kind, text: `${actor} mentioned you in “${title}”`, url: `${publicUrl}/post/${item.post_id}` });
    }
  }
  return entries;
}
