// Every kind of background job and what runs it (server/jobs/), started on the instance that
// leads (server.ts). Here, above the features, so that a feature may queue work without the jobs
// feature depending on it in turn.
import type { AppContext } from './context.ts';
import { sendVerificationLink, VERIFY_EMAIL_JOB } from './auth/email-verification.ts';
import { BACKUP_JOB, runScheduledBackup, scheduleBackups } from './backups/backups.service.ts';
import { PASSWORD_RESET_JOB, sendResetLink } from './auth/password-reset.ts';
import { DIGEST_MAIL_JOB, runWeeklyDigest, scheduleWeeklyDigest, sendDigest, WEEKLY_DIGEST_JOB } from './digest/digest.service.ts';
import { MAIL_JOB, sendQueuedMail } from './mail/mail.outbox.ts';
import { NOTICE_MAIL_JOB, writeNoticeMail } from './mail-notices/mail-notices.batch.ts';
import type { Mailer } from './mail/mail.transport.ts';
import { startJobRunner, type JobRunner, type JobRunnerOptions } from './jobs/jobs.runner.ts';
import { DELIVERY_RETRIES, FEDIFY_JOB } from './federation/message-queue.ts';
import { FEDERATION_QUEUE, SEND_JOB } from './federation-outgoing/federation-outgoing.service.ts';
import { MAIN_QUEUE } from './jobs/jobs.service.ts';
import { AVATAR_JOB } from './federation/federation.avatars.ts';

/** Kinds of job that send mail: what `mail-queue` lists and retries. */
export const MAIL_JOB_KINDS = [
  MAIL_JOB, PASSWORD_RESET_JOB, VERIFY_EMAIL_JOB, NOTICE_MAIL_JOB, DIGEST_MAIL_JOB, WEEKLY_DIGEST_JOB,
] as const;

/**
 * Kinds of job that talk to other servers (ActivityPub): the activities to send, Fedify's
 * deliveries, and the copies of remote authors' pictures (retried as jobs are, not as deliveries).
 */
export const FEDERATION_JOB_KINDS: readonly string[] = [SEND_JOB, FEDIFY_JOB, AVATAR_JOB];

/** The queues /metrics counts (`beatnik_queue_depth`), by the kinds in each; any other kind is 'other'. */
export const JOB_QUEUES: Readonly<Record<string, readonly string[]>> = {
  mail: MAIL_JOB_KINDS,
  federation: FEDERATION_JOB_KINDS,
};

/** Federation jobs run at once: deliveries to as many servers. */
const FEDERATION_CONCURRENCY = 4;

export function startJobs(ctx: AppContext, mailer: Mailer | undefined, options: JobRunnerOptions = {}): JobRunner {
  // The digest's Monday run waits in the jobs table; the leader puts the first one there.
  if (ctx.config.mail) {
    scheduleWeeklyDigest(ctx.db).catch((err: Error) => ctx.log.warn({ err: err.message }, 'the weekly digest could not be scheduled'));
  }
  // So does the next backup (BACKUP_HOURS; none when 0).
  scheduleBackups(ctx).catch((err: Error) => ctx.log.warn({ err: err.message }, 'backups could not be scheduled'));
  // Fedify's deliveries reach it through the jobs table (federation/message-queue.ts), here only;
  // ctx.federation's handlers are its sending, its deliveries and its copies of remote pictures,
  // run by a runner of their own: a backlog of deliveries, or a server slow to answer, never holds
  // mail back, and a few deliveries go at once (each mostly waits on the server it goes to).
  const stopFederationQueue = ctx.federation?.startQueue();
  const runners = [startJobRunner(ctx, {
    [MAIL_JOB]: sendQueuedMail(mailer),
    [PASSWORD_RESET_JOB]: sendResetLink(ctx, mailer),
    [VERIFY_EMAIL_JOB]: sendVerificationLink(ctx, mailer),
    [NOTICE_MAIL_JOB]: writeNoticeMail(ctx),
    [WEEKLY_DIGEST_JOB]: runWeeklyDigest(ctx),
    [DIGEST_MAIL_JOB]: sendDigest(ctx, mailer),
    [BACKUP_JOB]: runScheduledBackup(ctx),
  }, { ...options, queue: MAIN_QUEUE })];
  if (ctx.federation) {
    runners.push(startJobRunner(ctx, ctx.federation.jobHandlers, {
      concurrency: FEDERATION_CONCURRENCY, ...options, queue: FEDERATION_QUEUE,
      retryByKind: { [SEND_JOB]: DELIVERY_RETRIES, [FEDIFY_JOB]: DELIVERY_RETRIES, ...options.retryByKind },
    }));
  }
  return {
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
      stopFederationQueue?.();
    },
  };
}
