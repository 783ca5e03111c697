// SQL for sessions: the signed-in user read together with whether their token was ended, and the
// ended tokens themselves (migrations/0008_sessions.ts).
import { preparedQuery } from '../prepared-query.ts';
import type { DB, UserRow } from '../schema.ts';

/** Every signed-in request runs this: the user row, and a primary-key probe of the ended tokens. */
const userWithToken = preparedQuery((db, p: { id: number; tokenId: string }) =>
  db.selectFrom('users').selectAll()
    .select((eb) => eb.exists(eb.selectFrom('revoked_tokens').select('token_hash')
      .where('token_hash', '=', p.tokenId)).as('revoked'))
    .where('id', '=', p.id));

/** The token's user, and whether the token was ended; undefined when there is no such user. */
export async function findUserWithToken(db: DB, userId: number, tokenId: string): Promise<{ user: UserRow; revoked: boolean } | undefined> {
  const row = await userWithToken.first(db, { id: userId, tokenId });
  if (!row) return undefined;
  const { revoked, ...user } = row;
  // SQLite answers 0/1, PostgreSQL a boolean.
  return { user, revoked: Boolean(revoked) };
}

/** Remembers an ended token until it expires; ending it twice is the same as once. */
export async function insertRevokedToken(db: DB, tokenId: string, expiresAt: string): Promise<void> {
  await db.insertInto('revoked_tokens').values({ token_hash: tokenId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('token_hash').doNothing()).execute();
}

/** Forgets the ended tokens that have expired by `now` (they fail on their expiry alone). */
export async function deleteExpiredRevokedTokens(db: DB, now: string): Promise<number> {
  const result = await db.deleteFrom('revoked_tokens').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
