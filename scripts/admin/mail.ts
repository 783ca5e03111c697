// mail-test --to ADDRESS: sends a test mail now through SMTP_URL and prints the server's answer.
// mail-queue [--retry ID | --retry-all]: the mail waiting to go and the mail given up on, and
// puts failed mail back in the queue (DESIGN.md, Mail; the server's jobs runner sends it).
// send-digest: the weekly digest queued now for every reader who chose it.
import { isValidEmail, normalizeEmail } from '../../server/users/users.names.ts';
import { MAIL_JOB_KINDS } from '../../server/background.ts';
import { queueDigests } from '../../server/digest/digest.service.ts';
import { listJobs, retryFailedJobs } from '../../server/jobs/jobs.service.ts';
import { composeMail } from '../../server/mail/mail.compose.ts';
import { openMailer } from '../../server/mail/mail.transport.ts';
import { mailSite } from '../../server/site/site.service.ts';
import type { JobRow } from '../../server/schema.ts';
import { CommandFailure, UsageError, type Command } from './cli.ts';

export const mailTestCommand: Command<{ to: string }> = {
  name: 'mail-test',
  usage: 'mail-test --to ADDRESS',
  summary: 'Send a test mail now through SMTP_URL and print the mail server\'s answer.',
  details: ['Sent at once, not through the outbox: it tells whether SMTP_URL, MAIL_FROM and DKIM work.'],
  example: 'npm run admin -- mail-test --to you@example.org',
  options: { to: { type: 'string' } },
  parse: ({ values }) => {
    const to = normalizeEmail(typeof values.to === 'string' ? values.to : '');
    if (!isValidEmail(to)) throw new UsageError('--to needs an email address');
    return { to };
  },
  async run(ctx, { to }, out) {
    if (!ctx.config.mail) throw new CommandFailure('Mail is off: set SMTP_URL (and MAIL_FROM) first');
    const mailer = openMailer(ctx.config.mail, ctx.config.publicUrl);
    const site = await mailSite(ctx);
    try {
      const answer = await mailer.send({
        to,
        ...composeMail(site, {
          subject: `A test mail from ${site.name}`,
          heading: 'Mail works',
          paragraphs: [`This test mail was sent by \`mail-test\` from ${ctx.config.publicUrl}/ through ${new URL(ctx.config.mail.smtpUrl).host}.`],
        }),
      });
      out.line(`Sent to ${to}: ${answer}`);
    } catch (err) {
      throw new CommandFailure(`The mail server refused or could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      mailer.close();
    }
  },
};

export const mailQueueCommand: Command<{ retry?: number | 'all' }> = {
  name: 'mail-queue',
  usage: 'mail-queue [--retry ID | --retry-all]',
  summary: 'List the mail waiting to be sent and the mail given up on; put failed mail back in the queue.',
  details: [
    'Mail is tried again a minute after a failure, then at doubling intervals up to six hours,',
    'and given up after three days. --retry ID (or --retry-all) queues failed mail again now.',
  ],
  example: 'npm run admin -- mail-queue',
  options: { retry: { type: 'string' }, 'retry-all': { type: 'boolean' } },
  parse: ({ values }) => {
    if (values['retry-all'] === true) return { retry: 'all' };
    if (values.retry === undefined) return {};
    if (typeof values.retry !== 'string' || !/^[1-9]\d*$/.test(values.retry)) throw new UsageError('--retry needs a job id (from mail-queue)');
    return { retry: Number(values.retry) };
  },
  async run(ctx, { retry }, out) {
    if (retry !== undefined) {
      const count = await retryFailedJobs(ctx.db, MAIL_JOB_KINDS, retry === 'all' ? undefined : retry);
      if (count === 0) throw new CommandFailure(retry === 'all' ? 'No failed mail to retry' : `No failed mail with id ${retry}`);
      out.line(`${count} mail queued again`);
      return;
    }
    const jobs = await listJobs(ctx.db, MAIL_JOB_KINDS, ['pending', 'running', 'failed']);
    const failed = jobs.filter((job) => job.state === 'failed');
    out.line(`${jobs.length - failed.length} waiting, ${failed.length} failed`);
    for (const job of jobs) out.line(describe(job));
  },
};

export const sendDigestCommand: Command<Record<string, never>> = {
  name: 'send-digest',
  usage: 'send-digest',
  summary: 'Queue the weekly digest now for every reader who chose it.',
  details: [
    'The week up to now: its top five of The Pulse and the new articles of the authors each reader',
    'follows. The running server sends them; the Monday 08:00 UTC digest still goes as planned.',
  ],
  example: 'npm run admin -- send-digest',
  options: {},
  parse: () => ({}),
  async run(ctx, _args, out) {
    if (!ctx.config.mail) throw new CommandFailure('Mail is off: set SMTP_URL (and MAIL_FROM) first');
    const queued = await ctx.db.transaction().execute((trx) => queueDigests(trx));
    out.line(`The digest is queued for ${queued} ${queued === 1 ? 'reader' : 'readers'}: the running server sends it.`);
  },
};

function describe(job: JobRow): string {
  const payload = JSON.parse(job.payload) as { to?: string; subject?: string; email?: string; user_id?: number };
  const whom = payload.email ?? (payload.user_id === undefined ? 'every reader who chose it' : `user #${payload.user_id}`);
  const what = job.kind === 'mail' ? `to ${payload.to}: ${payload.subject}` : `${job.kind} for ${whom}`;
  const when = job.state === 'failed' ? 'failed' : job.state === 'running' ? 'sending' : `next try ${job.run_at}`;
  const why = job.last_error ? ` (${job.attempts} ${job.attempts === 1 ? 'try' : 'tries'}; last: ${job.last_error})` : '';
  return `#${job.id} ${when}, queued ${job.created_at}, ${what}${why}`;
}
