// Every kind of background job and what runs it (server/jobs/), started on the instance that
// leads (server.ts). Here, above the features, so that a feature may queue work without the jobs
// feature depending on it in turn.
import type { AppContext } from './context.ts';
import { sendVerificationLink, VERIFY_EMAIL_JOB } from './auth/email-verification.ts';
import { PASSWORD_RESET_JOB, sendResetLink } from './auth/password-reset.ts';
import { MAIL_JOB, sendQueuedMail } from './mail/mail.outbox.ts';
import type { Mailer } from './mail/mail.transport.ts';
import { startJobRunner, type JobRunner, type JobRunnerOptions } from './jobs/jobs.runner.ts';

/** Kinds of job that send mail: what `mail-queue` lists and retries. */
export const MAIL_JOB_KINDS = [MAIL_JOB, PASSWORD_RESET_JOB, VERIFY_EMAIL_JOB] as const;

export function startJobs(ctx: AppContext, mailer: Mailer | undefined, options: JobRunnerOptions = {}): JobRunner {
  return startJobRunner(ctx, {
    [MAIL_JOB]: sendQueuedMail(mailer),
    [PASSWORD_RESET_JOB]: sendResetLink(ctx, mailer),
    [VERIFY_EMAIL_JOB]: sendVerificationLink(ctx, mailer),
  }, options);
}
