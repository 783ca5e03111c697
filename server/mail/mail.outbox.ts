// The outbox (DESIGN.md, Mail): every mail is a 'mail' job, written in the same transaction as the
// act that causes it and sent later by the leader's jobs runner, retried while the mail server is
// away (server/jobs/). A mail whose recipient the server refuses for good (a 5xx answer to RCPT
// TO), or whose address is not one plain address, is not tried again.
import { isValidEmail } from '../../shared/accounts.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { PermanentJobError, type JobHandler } from '../jobs/jobs.runner.ts';
import type { DB } from '../schema.ts';
import { isPermanentRefusal } from './mail.refusals.ts';
import type { Mailer, OutgoingMail } from './mail.transport.ts';

export const MAIL_JOB = 'mail';

/** Queues a mail; `db` is normally the transaction of the act that causes it. */
export async function queueMail(db: DB, mail: OutgoingMail): Promise<void> {
  await enqueueJob(db, { kind: MAIL_JOB, payload: mail });
}

/**
 * Hands a mail to the SMTP server now; for a job's handler, never a request. Throws
 * PermanentJobError for what no later try would mend.
 */
export async function deliver(mailer: Mailer | undefined, mail: OutgoingMail): Promise<void> {
  if (!mailer) throw new Error('mail is off: SMTP_URL is not set');
  // Addresses stored before the rule against header characters could name a second mailbox.
  if (!isValidEmail(mail.to)) throw new PermanentJobError(`not one plain address: ${JSON.stringify(mail.to)}`);
  try {
    await mailer.send(mail);
  } catch (err) {
    if (isPermanentRefusal(err)) throw new PermanentJobError((err as Error).message);
    throw err;
  }
}

/** Sends a queued mail. Without a mailer (SMTP_URL unset since it was queued) it waits for one. */
export function sendQueuedMail(mailer: Mailer | undefined): JobHandler {
  return (mail: OutgoingMail) => deliver(mailer, mail);
}
