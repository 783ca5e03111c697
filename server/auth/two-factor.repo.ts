// SQL for two-factor sign-in (migrations/0020_two_factor.ts): the secret of an account being set
// up or on, the flag on its user row, and its recovery codes, kept as hashes.
import { nowIso } from '../db.ts';
import type { DB } from '../schema.ts';

export interface TwoFactorRow {
  secret: string;
  confirmed: number;
  last_step: number;
}

export function findTwoFactor(db: DB, userId: number): Promise<TwoFactorRow | undefined> {
  return db.selectFrom('two_factor').select(['secret', 'confirmed', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
}

/** A new secret waiting for its first code; replaces an older one still waiting, never one confirmed. */
export async function upsertPendingSecret(db: DB, userId: number, secret: string): Promise<boolean> {
  const result = await db.insertInto('two_factor')
    .values({ user_id: userId, secret, confirmed: 0, last_step: 0, created_at: nowIso() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, last_step: 0, created_at: nowIso() })
      .where('two_factor.confirmed', '=', 0))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Turns the waiting secret on, the code of `step` used, and stores the recovery codes' hashes:
 * false (nothing changed) when the secret is no longer the one waiting.
 */
export async function confirmTwoFactor(trx: DB, userId: number, secret: string, step: number, codeHashes: string[]): Promise<boolean> {
  const confirmed = await trx.updateTable('two_factor').set({ confirmed: 1, last_step: step })
    .where('user_id', '=', userId).where('secret', '=', secret).where('confirmed', '=', 0)
    .executeTakeFirst();
  if (Number(confirmed.numUpdatedRows) === 0) return false;
  await trx.updateTable('users').set({ two_factor_enabled: 1 }).where('id', '=', userId).execute();
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx.insertInto('two_factor_recovery_codes').values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash }))).execute();
  return true;
}

/**
 * Marks the code of `step` used, if no code of that step or a later one was: of two sign-ins
 * with the same code, at once or one after the other, one gets in.
 */
export async function useTimeStep(db: DB, userId: number, step: number): Promise<boolean> {
  const result = await db.updateTable('two_factor').set({ last_step: step })
    .where('user_id', '=', userId).where('confirmed', '=', 1).where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Takes (deletes) the recovery code with this hash: true when it was there, unused. */
export async function useRecoveryCode(db: DB, userId: number, codeHash: string): Promise<boolean> {
  const result = await db.deleteFrom('two_factor_recovery_codes')
    .where('user_id', '=', userId).where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countRecoveryCodes(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('two_factor_recovery_codes').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Two-factor sign-in off: the secret, the codes and the flag go. True when it was on or being set up. */
export async function deleteTwoFactor(trx: DB, userId: number): Promise<boolean> {
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx.updateTable('users').set({ two_factor_enabled: 0 }).where('id', '=', userId).execute();
  const result = await trx.deleteFrom('two_factor').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
