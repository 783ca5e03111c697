// Accounts waiting for approval (DESIGN.md, Registration): the admins' 'Pending' tab lists them,
// oldest first; an approval lets one in, a rejection removes it — freeing its username and address,
// as someone refused would expect — each telling the person by mail when mail is on (queued in the
// act's own transaction). Neither is in the public moderation log: a waiting account was never
// public, and its name stays so.
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Body, Page } from '../http.ts';
import { lineText } from '../http.ts';
import { composeMail, type MailSite } from '../mail/mail.compose.ts';
import { queueMail } from '../mail/mail.outbox.ts';
import type { DB, UserRow } from '../schema.ts';
import { mailSite } from '../site/site.service.ts';
import { approvePendingUser, deletePendingUser, findUser, pendingUsers } from '../users/users.service.ts';
import { PENDING_NOT_FOUND, REJECTION_REASON_LENGTH_MESSAGE, REJECTION_REASON_MAX } from '../../shared/registration.ts';

export interface PendingAccount {
  id: number;
  username: string;
  email: string;
  email_verified: boolean;
  bio: string;
  created_at: string;
}

export interface PendingPage {
  users: PendingAccount[];
  total: number;
}

function toPendingAccount(user: UserRow): PendingAccount {
  return {
    id: user.id, username: user.username, email: user.email, email_verified: user.email_verified === 1,
    bio: user.bio, created_at: user.created_at,
  };
}

export async function listPending(ctx: AppContext, page: Page): Promise<PendingPage> {
  const { users, total } = await pendingUsers(ctx.db, page);
  return { users: users.map(toPendingAccount), total };
}

/** The waiting account, read inside the act's transaction; 404 when it waits no more. */
async function waiting(trx: DB, id: number): Promise<UserRow> {
  const user = await findUser(trx, id);
  if (!user || !user.pending) throw notFound(PENDING_NOT_FOUND);
  return user;
}

export async function approveAccount(ctx: AppContext, id: number): Promise<string> {
  const site = await mailSite(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const user = await waiting(trx, id);
    if (!await approvePendingUser(trx, id)) throw notFound(PENDING_NOT_FOUND);
    if (ctx.config.mail) await queueMail(trx, { to: user.email, ...approvedMail(site, user) });
    return `${user.username} can log in now`;
  });
}

export function rejectionReason(body: Body): string {
  const reason = lineText(body, 'reason') ?? '';
  if (reason.length > REJECTION_REASON_MAX) throw badRequest(REJECTION_REASON_LENGTH_MESSAGE);
  return reason;
}

export async function rejectAccount(ctx: AppContext, id: number, body: Body): Promise<string> {
  const reason = rejectionReason(body);
  const site = await mailSite(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const user = await waiting(trx, id);
    if (!await deletePendingUser(trx, id)) throw notFound(PENDING_NOT_FOUND);
    if (ctx.config.mail) await queueMail(trx, { to: user.email, ...rejectedMail(site, user, reason) });
    return `${user.username} was rejected and removed`;
  });
}

function approvedMail(site: MailSite, user: UserRow) {
  return composeMail(site, {
    subject: `Your ${site.name} account is approved`,
    heading: 'Welcome aboard',
    paragraphs: [`An administrator approved the account ${user.username} on ${site.name}. You can log in now.`],
    action: { label: 'Log in', url: `${site.url}/login` },
  });
}

function rejectedMail(site: MailSite, user: UserRow, reason: string) {
  return composeMail(site, {
    subject: `Your ${site.name} registration was not approved`,
    heading: 'Registration not approved',
    paragraphs: [
      `An administrator did not approve the account ${user.username} on ${site.name}.`,
      reason ? `The reason given: ${reason}` : 'No reason was given.',
    ],
    footer: ['The account has been removed, with its username and email address.'],
  });
}
