// Sessions (DESIGN.md, Accounts: settings): a session is a token. One ends at sign-out on the
// server (its token is remembered as ended until it expires); all of a user's end together when
// their token version moves (sign out everywhere, a new password).
import type { DB, UserRow } from '../schema.ts';
import { endEverySession } from '../users/users.service.ts';
import { deleteExpiredRevokedTokens, findUserWithToken, insertRevokedToken } from './sessions.repo.ts';
import type { TokenClaims } from './tokens.ts';

/** The user a valid token names, and whether that token was ended since; undefined for no such user. */
export function findSessionUser(db: DB, claims: TokenClaims): Promise<{ user: UserRow; revoked: boolean } | undefined> {
  return findUserWithToken(db, claims.userId, claims.tokenId);
}

/** Ends this one token at once, on every instance; the user's other sessions go on. */
export async function endSession(db: DB, claims: TokenClaims): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertRevokedToken(trx, claims.tokenId, new Date(claims.expiresAt).toISOString());
    // Sign-outs are rare and the expired rows few: the list is kept short as it grows.
    await deleteExpiredRevokedTokens(trx, new Date().toISOString());
  });
}

/** Ends every token the user holds, this one included. */
export async function endAllSessions(db: DB, userId: number): Promise<void> {
  await endEverySession(db, userId);
}
