// The outbox (DESIGN.md, Mail): every mail is a 'mail' job, written in the same transaction as the
// act that causes it and sent later by the leader's jobs runner, retried while the mail server is
// away (server/jobs/). A mail whose recipient the server refuses for good (a 5xx answer to RCPT
// TO) is not tried again.
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

/** Sends a queued mail. Without a mailer (SMTP_URL unset since it was queued) it waits for one. */
export function sendQueuedMail(mailer: Mailer | undefined): JobHandler {
  return async (mail: OutgoingMail) => {
    if (!mailer) throw new Error('mail is off: SMTP_URL is not set');
    try {
      await mailer.send(mail);
    } catch (err) {
      if (isPermanentRefusal(err)) throw new PermanentJobError((err as Error).message);
      throw err;
    }
  };
}
