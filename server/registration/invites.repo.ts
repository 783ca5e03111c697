// The invitations of 'invite' mode (migrations/0019_registration.ts). Live: uses left, not expired.
import type { DB } from '../schema.ts';
import type { Selectable } from 'kysely';
import type { InvitesTable } from '../schema.ts';

export type InviteRow = Selectable<InvitesTable>;

export async function insertInvite(db: DB, invite: InviteRow): Promise<void> {
  await db.insertInto('invites').values(invite).execute();
}

/** The live invitations, the latest to expire first (invites_expires). */
export function listLiveInvites(db: DB, now: string): Promise<InviteRow[]> {
  return db.selectFrom('invites').selectAll().where('expires_at', '>', now).where('uses_left', '>', 0)
    .orderBy('expires_at', 'desc').limit(1000).execute();
}

export function findLiveInvite(db: DB, code: string, now: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('code', '=', code).where('expires_at', '>', now).where('uses_left', '>', 0)
    .executeTakeFirst();
}

/** Takes one use of a live invitation; false when it has none left (another registration took the last). */
export async function takeInviteUse(db: DB, code: string, now: string): Promise<boolean> {
  const result = await db.updateTable('invites').set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
    .where('code', '=', code).where('expires_at', '>', now).where('uses_left', '>', 0).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteInvite(db: DB, code: string): Promise<boolean> {
  const result = await db.deleteFrom('invites').where('code', '=', code).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Invitations no longer good for anything: expired or used up. */
export async function deleteDeadInvites(db: DB, now: string): Promise<void> {
  await db.deleteFrom('invites').where((eb) => eb.or([eb('expires_at', '<=', now), eb('uses_left', '=', 0)])).execute();
}
