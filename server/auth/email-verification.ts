// Verified addresses (DESIGN.md, Mail). Registering, or changing one's address, queues a
// 'verify-email' job in the same transaction; the job, off the request, makes the link (48 hours,
// stored as a hash, voiding the account's older ones) and mails it, so the token is stored nowhere
// but in the mail. The link marks the address verified while the account still has it. A changed
// address is also told to the old one. Until verified, publishing, commenting and rating answer
// 403 (users/users.verified.ts).
import {
  ALREADY_VERIFIED_MESSAGE, EMAIL_VERIFIED_MESSAGE, VERIFY_LINK_INVALID_MESSAGE,
} from '../../shared/accounts.ts';
import type { AppContext } from '../context.ts';
import { badRequest, conflict } from '../errors.ts';
import { rawText, type Body } from '../http.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { PermanentJobError, type JobHandler } from '../jobs/jobs.runner.ts';
import { composeMail } from '../mail/mail.compose.ts';
import { mailSite } from '../site/site.service.ts';
import { deliver, queueMail } from '../mail/mail.outbox.ts';
import type { Mailer } from '../mail/mail.transport.ts';
import type { DB, UserRow } from '../schema.ts';
import { findUser, markEmailVerified } from '../users/users.service.ts';
import { createLink, takeLink } from './account-links.repo.ts';

export const VERIFY_EMAIL_JOB = 'verify-email';
const VERIFY_LINK_TTL_MS = 48 * 60 * 60_000;

interface VerifyRequest {
  user_id: number;
  /** The address to verify: a job for an address the account has since left does nothing. */
  email: string;
}

/** Queues the link for the user's address; `trx` is the transaction that set the address. */
export async function queueVerification(trx: DB, user: Pick<UserRow, 'id' | 'email'>): Promise<void> {
  await enqueueJob(trx, { kind: VERIFY_EMAIL_JOB, payload: { user_id: user.id, email: user.email } satisfies VerifyRequest });
}

/** The job: a link and its mail, unless the address is verified or no longer the account's. */
export function sendVerificationLink(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>, mailer: Mailer | undefined): JobHandler {
  return async ({ user_id, email }: VerifyRequest, job) => {
    if (Date.now() - Date.parse(job.created_at) > VERIFY_LINK_TTL_MS) throw new PermanentJobError('asked for over 48 hours ago');
    const user = await findUser(ctx.db, user_id);
    if (!user || user.email !== email || user.email_verified === 1) return;
    const site = await mailSite(ctx);
    const token = await createLink(ctx.db, user, 'verify', VERIFY_LINK_TTL_MS);
    await deliver(mailer, {
      to: user.email,
      ...composeMail(site, {
        subject: `Confirm your email address for ${site.name}`,
        heading: 'Confirm your email address',
        paragraphs: [
          `Please confirm that ${user.email} is the address of ${user.username}'s account on ${site.name}. Until you do, you can read and follow, but not publish, comment or rate.`,
          'The link works for 48 hours.',
        ],
        action: { label: 'Confirm my address', url: `${ctx.config.publicUrl}/verify-email?token=${token}` },
        footer: ['If you did not make this account, ignore this mail: nothing is published under this address until it is confirmed.'],
      }),
    });
  };
}

/** POST /api/auth/verify-email {token}: the link's address is verified. */
export async function verifyEmail(ctx: AppContext, body: Body): Promise<string> {
  const token = rawText(body, 'token') ?? '';
  await ctx.db.transaction().execute(async (trx) => {
    const link = await takeLink(trx, token, 'verify');
    // A link sent to an address the account has since left verifies nothing.
    if (!link || !await markEmailVerified(trx, link.user_id, link.email)) throw badRequest(VERIFY_LINK_INVALID_MESSAGE);
  });
  return EMAIL_VERIFIED_MESSAGE;
}

/** POST /api/auth/resend-verification: a new link for the signed-in user's address. */
export async function resendVerification(ctx: AppContext, user: UserRow): Promise<void> {
  if (user.email_verified === 1) throw conflict(ALREADY_VERIFIED_MESSAGE);
  await queueVerification(ctx.db, user);
}

/**
 * What a change of address writes beside it when mail is on: the old address is told, and the new
 * one, when addresses are verified, gets its link.
 */
export function onAddressChanged(ctx: Pick<AppContext, 'config' | 'readCache'>, oldEmail: string) {
  return async (trx: DB, user: UserRow): Promise<void> => {
    if (user.email_verified !== 1) await queueVerification(trx, user);
    // Through the transaction: SQLite's one connection is the transaction's until it ends.
    const site = await mailSite({ ...ctx, db: trx });
    await queueMail(trx, {
      to: oldEmail,
      ...composeMail(site, {
        subject: `Your ${site.name} email address was changed`,
        heading: 'Your email address was changed',
        paragraphs: [
          `The email address of ${user.username}'s account on ${site.name} was just changed from ${oldEmail} to ${user.email}. Mail for the account goes there from now on.`,
          'If this was not you, tell the site\'s administrators at once: they can give the account its address back.',
        ],
      }),
    });
  };
}
