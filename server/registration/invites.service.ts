// Invitations (DESIGN.md, Registration): while registration is by invitation, an admin makes codes,
// each good for a few registrations (1 unless told) for a few days (7 unless told), and hands out
// PUBLIC_URL/register?invite=CODE. A registration takes one use inside its own transaction: of two
// racing for the last use, one commits and the other finds none left and changes nothing.
// A code is a shareable link rather than a password: it is stored as it is, to be listed again.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import type { DB, UserRow } from '../schema.ts';
import {
  INVITATION_ONLY_MESSAGE, INVITE_DAYS_MESSAGE, INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, INVITE_MAX_DAYS, INVITE_MAX_USES,
  INVITE_NOT_FOUND, INVITE_USES_MESSAGE,
} from '../../shared/registration.ts';
import { deleteDeadInvites, deleteInvite, findLiveInvite, insertInvite, listLiveInvites, takeInviteUse, type InviteRow } from './invites.repo.ts';

const DAY_MS = 24 * 60 * 60_000;
/** The longest code a registration may name: longer is no code of ours. */
const CODE_MAX = 64;

export interface Invite {
  code: string;
  url: string;
  expires_at: string;
  uses_left: number;
  created_at: string;
}

function toInvite(publicUrl: string, row: InviteRow): Invite {
  return {
    code: row.code, url: `${publicUrl}/register?invite=${encodeURIComponent(row.code)}`,
    expires_at: row.expires_at, uses_left: row.uses_left, created_at: row.created_at,
  };
}

function wholeNumber(body: Body, name: string, fallback: number, max: number, message: string): number {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) throw badRequest(message);
  return value;
}

/** POST /api/invites {uses?, days?}. */
export async function createInvite(ctx: AppContext, admin: UserRow, body: Body): Promise<Invite> {
  const uses = wholeNumber(body, 'uses', INVITE_DEFAULT_USES, INVITE_MAX_USES, INVITE_USES_MESSAGE);
  const days = wholeNumber(body, 'days', INVITE_DEFAULT_DAYS, INVITE_MAX_DAYS, INVITE_DAYS_MESSAGE);
  const now = nowIso();
  const row: InviteRow = {
    code: randomBytes(12).toString('base64url'), created_by: admin.id, uses_left: uses,
    expires_at: new Date(Date.parse(now) + days * DAY_MS).toISOString(), created_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await deleteDeadInvites(trx, now); // what is good for nothing goes as the next one comes
    await insertInvite(trx, row);
  });
  return toInvite(ctx.config.publicUrl, row);
}

export async function liveInvites(ctx: AppContext): Promise<Invite[]> {
  return (await listLiveInvites(ctx.db, nowIso())).map((row) => toInvite(ctx.config.publicUrl, row));
}

export async function revokeInvite(ctx: AppContext, code: string): Promise<void> {
  if (!await deleteInvite(ctx.db, code)) throw notFound(INVITE_NOT_FOUND);
}

/** The code a registration names (`invite`), if it is a string of a code's size. */
export function inviteCodeOf(body: Body): string | undefined {
  const code = body.invite;
  return typeof code === 'string' && code.length > 0 && code.length <= CODE_MAX ? code.trim() : undefined;
}

export async function isLiveInvite(db: DB, code: string): Promise<boolean> {
  return (await findLiveInvite(db, code, nowIso())) !== undefined;
}

/** Inside the registration's transaction: one use of the code, or 403 and nothing written. */
export async function useInvite(trx: DB, code: string): Promise<void> {
  if (!await takeInviteUse(trx, code, nowIso())) throw forbidden(INVITATION_ONLY_MESSAGE);
}
