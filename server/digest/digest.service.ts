// The weekly digest (DESIGN.md, Mail): Mondays at 08:00 UTC, to every reader who chose it, the
// week's top five of The Pulse and the newest articles of the authors they follow.
//
// The schedule is a job: one 'weekly-digest' row always waits for the next Monday (put there by
// the leader at start when there is none). When it runs it queues one 'digest-mail' job per reader
// and the next week's 'weekly-digest', in one transaction; each 'digest-mail' job writes its
// reader's mail when it is sent, so a retry tells the week as it is then. `send-digest` queues the
// readers' jobs now, the schedule untouched.
import { excerpt } from '../../shared/excerpt.ts';
import { htmlText } from '../../shared/html-text.ts';
import type { AppContext } from '../context.ts';
import { rankedPosts } from '../discovery/discovery.service.ts';
import { enqueueJob, hasJobOfKind } from '../jobs/jobs.service.ts';
import type { JobHandler } from '../jobs/jobs.runner.ts';
import { composeMail, type MailEntry } from '../mail/mail.compose.ts';
import { mailSite } from '../site/site.service.ts';
import { deliver } from '../mail/mail.outbox.ts';
import type { Mailer } from '../mail/mail.transport.ts';
import { unsubscribeHeaders, unsubscribeUrl } from '../mail-notices/mail-notices.unsubscribe.ts';
import type { DB } from '../schema.ts';
import { activeBan } from '../users/users.bans.ts';
import { findUser } from '../users/users.service.ts';
import { digestReaderIds, followedAuthorsArticles } from './digest.repo.ts';

export const WEEKLY_DIGEST_JOB = 'weekly-digest';
export const DIGEST_MAIL_JOB = 'digest-mail';
const WEEK_MS = 7 * 86_400_000;
const READERS_PER_READ = 500;
const TOP = 5;
const FOLLOWED = 10;

/** The first Monday 08:00 UTC after `now`. */
export function nextDigestTime(now: Date): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 8));
  at.setUTCDate(at.getUTCDate() + ((8 - at.getUTCDay()) % 7)); // the coming Monday, today if it is one
  if (at <= now) at.setUTCDate(at.getUTCDate() + 7);
  return at;
}

/** Puts the next Monday's run in the jobs table unless one is there (run by the leader at start). */
export async function scheduleWeeklyDigest(db: DB, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await hasJobOfKind(trx, WEEKLY_DIGEST_JOB)) return;
    await enqueueJob(trx, { kind: WEEKLY_DIGEST_JOB, payload: {}, runAt: nextDigestTime(now) });
  });
}

/** One 'digest-mail' job per reader who chose the digest, telling the week up to `now`; how many. */
export async function queueDigests(trx: DB, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - WEEK_MS).toISOString();
  let queued = 0;
  for (let after = 0; ;) {
    const ids = await digestReaderIds(trx, now.toISOString(), after, READERS_PER_READ);
    for (const id of ids) await enqueueJob(trx, { kind: DIGEST_MAIL_JOB, payload: { user_id: id, since } });
    queued += ids.length;
    if (ids.length < READERS_PER_READ) return queued;
    after = ids.at(-1)!;
  }
}

/** The 'weekly-digest' job: this week's mails queued, and next week's run. */
export function runWeeklyDigest(ctx: Pick<AppContext, 'db' | 'log'>): JobHandler {
  return async () => {
    const now = new Date();
    const queued = await ctx.db.transaction().execute(async (trx) => {
      const count = await queueDigests(trx, now);
      await enqueueJob(trx, { kind: WEEKLY_DIGEST_JOB, payload: {}, runAt: nextDigestTime(now) });
      return count;
    });
    ctx.log.info({ readers: queued }, 'weekly digest queued');
  };
}

/** The 'digest-mail' job: one reader's digest, written and sent now. */
export function sendDigest(ctx: AppContext, mailer: Mailer | undefined): JobHandler {
  return async ({ user_id, since }: { user_id: number; since: string }) => {
    const reader = await findUser(ctx.db, user_id);
    // Changed their mind, their address or their standing since it was queued: no mail.
    if (!reader || reader.mail_digest !== 'weekly' || reader.email_verified !== 1 || activeBan(reader)) return;
    const publicUrl = ctx.config.publicUrl;
    const [top, followed] = await Promise.all([
      rankedPosts(ctx, { since, mutedBy: reader.id }, 'ranking', { skip: 0, limit: TOP }),
      followedAuthorsArticles(ctx.db, reader.id, since, FOLLOWED),
    ]);
    if (top.length === 0 && followed.length === 0) return; // a quiet week: nothing to tell
    const site = await mailSite(ctx);
    const entry = (post: { id: number; title: string; content_html: string; author_username: string }): MailEntry => ({
      text: `${post.title}, by ${post.author_username}`,
      quote: excerpt(htmlText(post.content_html), 150),
      url: `${publicUrl}/post/${post.id}`,
    });
    const unsubscribe = unsubscribeUrl(ctx.config, reader.id, ['digest']);
    await deliver(mailer, {
      to: reader.email,
      ...composeMail(site, {
        subject: `The week on ${site.name}${top[0] ? `: ${top[0].title}` : ''}`,
        heading: 'The week in the paper',
        paragraphs: [`Hello ${reader.username}, here is what the week brought on ${site.name}.`],
        sections: [
          ...(top.length ? [{ title: 'The Pulse: the week\'s top five', entries: top.map(entry) }] : []),
          ...(followed.length ? [{ title: 'New from authors you follow', entries: followed.map(entry) }] : []),
        ],
        action: { label: 'Open the paper', url: `${publicUrl}/` },
        footer: [
          `You get this digest every Monday because you chose it in your settings: ${publicUrl}/settings`,
          `Stop it with one click: ${unsubscribe}`,
        ],
      }),
      headers: unsubscribeHeaders(unsubscribe),
    });
  };
}
