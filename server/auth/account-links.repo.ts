// The single-use links mail carries (migrations/0016_jobs.ts, account_tokens): a password reset's
// and an address check's. Only the SHA-256 of a link's token is stored; a newer link of the same
// purpose voids the older ones; a link is taken (deleted) when used.
import { createHash, randomBytes } from 'node:crypto';
import { nowIso } from '../db.ts';
import type { AccountTokenPurpose, DB } from '../schema.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A new link for the user's address `email`, voiding their older ones; returns its token. */
export async function createLink(
  db: DB, user: { id: number; email: string }, purpose: AccountTokenPurpose, ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('account_tokens').where('user_id', '=', user.id).where('purpose', '=', purpose).execute();
    await trx.insertInto('account_tokens').values({
      token_hash: hashOf(token), user_id: user.id, purpose, email: user.email,
      expires_at: new Date(Date.now() + ttlMs).toISOString(), created_at: nowIso(),
    }).execute();
  });
  return token;
}

/**
 * Takes the live link with this token: deleted, and returned with whom and which address it was
 * sent to. Of two uses at once one finds it gone: run it in the transaction that acts on it.
 */
export async function takeLink(trx: DB, token: string, purpose: AccountTokenPurpose): Promise<{ user_id: number; email: string } | undefined> {
  if (!token) return undefined;
  return trx.deleteFrom('account_tokens')
    .where('token_hash', '=', hashOf(token)).where('purpose', '=', purpose).where('expires_at', '>', nowIso())
    .returning(['user_id', 'email'])
    .executeTakeFirst();
}

/** Whether a live link has this token (read only: the use itself takes it with takeLink). */
export async function isLiveLink(db: DB, token: string, purpose: AccountTokenPurpose): Promise<boolean> {
  if (!token) return false;
  const row = await db.selectFrom('account_tokens').select('user_id')
    .where('token_hash', '=', hashOf(token)).where('purpose', '=', purpose).where('expires_at', '>', nowIso())
    .executeTakeFirst();
  return row !== undefined;
}
