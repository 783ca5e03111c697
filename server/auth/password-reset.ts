// A forgotten password (DESIGN.md, Mail): a request answers the same, in the same time, whether an
// account has the address or not, because all it does is queue a 'password-reset' job with the
// address; the job, later and off the request, looks the account up and, when there is one, makes
// a link (32 random bytes, stored as a hash, an hour, single use, voiding the account's older ones)
// and mails it. Using the link sets the password, ends every session and mails a notice; any other
// change of password voids the account's links too (users.service.ts, setPasswordHash).
import { PASSWORDS_DIFFER_MESSAGE } from '../../shared/accounts.ts';
import type { AppContext } from '../context.ts';
import { badRequest, badRequestIf } from '../errors.ts';
import { rawText, type Body } from '../http.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { PermanentJobError, type JobHandler } from '../jobs/jobs.runner.ts';
import { composeMail } from '../mail/mail.compose.ts';
import { mailSite } from '../site/site.service.ts';
import { deliver, queueMail } from '../mail/mail.outbox.ts';
import type { Mailer } from '../mail/mail.transport.ts';
import { findUser, findUserByEmail, setPasswordHash } from '../users/users.service.ts';
import { EMAIL_MESSAGE, isValidEmail, normalizeEmail, passwordProblem } from '../users/users.names.ts';
import { createLink, isLiveLink, takeLink } from './account-links.repo.ts';
import { hashPassword } from './passwords.ts';

export const RESET_REQUESTED = 'If an account exists for that email, a reset link is on its way.';
export const RESET_DONE = 'Your password has been reset. You can now log in.';
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired.';

export const PASSWORD_RESET_JOB = 'password-reset';
const RESET_LINK_TTL_MS = 60 * 60_000;

/** The address a forgot-password request names, normalized; a malformed one is refused (it can name no account). */
export function resetAddress(body: Body): string {
  const email = normalizeEmail(rawText(body, 'email') ?? '');
  if (!isValidEmail(email)) throw badRequest(EMAIL_MESSAGE);
  return email;
}

/** POST /api/auth/forgot-password: queues the request, whoever the address belongs to. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  await enqueueJob(ctx.db, { kind: PASSWORD_RESET_JOB, payload: { email } });
}

/**
 * The job: a link and its mail for the account with the address, if any. The link is made here
 * and sent from here, not queued: the mail carries the token, which is stored nowhere but in it
 * (the database keeps its hash). A failed send is tried again with a new link, voiding this one;
 * a request over an hour old is dropped, as its link would have been.
 */
export function sendResetLink(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>, mailer: Mailer | undefined): JobHandler {
  return async ({ email }: { email: string }, job) => {
    if (Date.now() - Date.parse(job.created_at) > RESET_LINK_TTL_MS) throw new PermanentJobError('asked for over an hour ago');
    const user = await findUserByEmail(ctx.db, email);
    if (!user) return;
    const site = await mailSite(ctx);
    const token = await createLink(ctx.db, user, 'reset', RESET_LINK_TTL_MS);
    await deliver(mailer, {
      to: user.email,
      ...composeMail(site, {
        subject: `Reset your ${site.name} password`,
        heading: 'Reset your password',
        paragraphs: [
          `Someone asked to reset the password of ${user.username}'s account on ${site.name}. If it was you, choose a new password within the hour:`,
        ],
        action: { label: 'Choose a new password', url: `${ctx.config.publicUrl}/reset-password?token=${token}` },
        footer: ['If you did not ask for this, ignore this mail: your password stays as it is.'],
      }),
    });
  };
}

/** POST /api/auth/reset-password: a new password for the link's account, every session ended. */
export async function resetPassword(ctx: AppContext, body: Body): Promise<void> {
  const token = rawText(body, 'token') ?? '';
  const password = rawText(body, 'password') ?? '';
  const confirmation = rawText(body, 'confirm_password');
  if (!await isLiveLink(ctx.db, token, 'reset')) throw badRequest(RESET_LINK_INVALID);
  badRequestIf(passwordProblem(password));
  if (confirmation !== undefined && confirmation !== password) throw badRequest(PASSWORDS_DIFFER_MESSAGE);
  // Hashed before the transaction: never hold the single SQLite connection across argon2.
  const passwordHash = await hashPassword(ctx.config, password);
  const site = await mailSite(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    // Taken inside the transaction: of two uses at once, one finds it gone.
    const link = await takeLink(trx, token, 'reset');
    const user = link && await findUser(trx, link.user_id);
    // A link sent to an address the account no longer has is void.
    if (!link || !user || user.email !== link.email) throw badRequest(RESET_LINK_INVALID);
    await setPasswordHash(trx, user.id, passwordHash); // every session ends, every other link is void
    await queueMail(trx, {
      to: user.email,
      ...composeMail(site, {
        subject: `Your ${site.name} password was changed`,
        heading: 'Your password was changed',
        paragraphs: [
          `The password of ${user.username}'s account on ${site.name} was just changed through a reset link, and every session of the account was signed out.`,
          'If this was not you, reset your password again at once and tell the site\'s administrators.',
        ],
        action: { label: 'Log in', url: `${ctx.config.publicUrl}/login` },
      }),
    });
  });
}

