// One's own credentials (DESIGN.md, Accounts: settings): a new password ends every other
// session and gives this one a new token; a new email needs the password. Every password is
// checked as a login's is, and counted by the same throttle (auth.service.ts, confirmPassword).
import {
  CURRENT_PASSWORD_REQUIRED_MESSAGE, EMAIL_CHANGED_MESSAGE, PASSWORD_CHANGED_MESSAGE, PASSWORD_REQUIRED_MESSAGE,
  SAME_EMAIL_MESSAGE, SAME_PASSWORD_MESSAGE, WRONG_CURRENT_PASSWORD_MESSAGE, WRONG_PASSWORD_MESSAGE,
} from '../../shared/accounts.ts';
import { confirmPassword, type LoginClient } from '../auth/auth.service.ts';
import { onAddressChanged } from '../auth/email-verification.ts';
import { hashPassword } from '../auth/passwords.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import { badRequest, badRequestIf } from '../errors.ts';
import { rawText, type Body } from '../http.ts';
import type { UserRow } from '../schema.ts';
import {
  EMAIL_MESSAGE, PASSWORDS_DIFFER_MESSAGE, isValidEmail, normalizeEmail, passwordProblem,
} from '../users/users.names.ts';
import { setEmail, setPasswordHash } from '../users/users.service.ts';
import { toPrivateUser, type PrivateUser } from '../users/users.view.ts';

/** The password a form sent, as typed; 400 `missing` when there is none. */
export function sentPassword(body: Body, name: string, missing: string): string {
  const password = rawText(body, name) ?? '';
  if (!password) throw badRequest(missing);
  return password;
}

export interface PasswordChanged {
  message: string;
  /** This session's new token: every token signed before the change has stopped working. */
  access_token: string;
  token_type: 'bearer';
}

/** PUT /api/users/me/password {current_password, new_password, confirm_password?}. */
export async function changePassword(ctx: AppContext, user: UserRow, body: Body, client: LoginClient): Promise<PasswordChanged> {
  const current = sentPassword(body, 'current_password', CURRENT_PASSWORD_REQUIRED_MESSAGE);
  const next = rawText(body, 'new_password') ?? '';
  badRequestIf(passwordProblem(next));
  const confirmation = rawText(body, 'confirm_password');
  if (confirmation !== undefined && confirmation !== next) throw badRequest(PASSWORDS_DIFFER_MESSAGE);
  if (next === current) throw badRequest(SAME_PASSWORD_MESSAGE);
  await confirmPassword(user, current, client, WRONG_CURRENT_PASSWORD_MESSAGE);
  // Hashed before writing: never hold the single SQLite connection across argon2.
  const changed = await setPasswordHash(ctx.db, user.id, await hashPassword(ctx.config, next));
  return { message: PASSWORD_CHANGED_MESSAGE, access_token: signAccessToken(ctx.config, changed), token_type: 'bearer' };
}

/** PUT /api/users/me/email {email, password}: the new login; sessions go on. */
export async function changeEmail(
  ctx: AppContext, user: UserRow, body: Body, client: LoginClient,
): Promise<{ message: string; user: PrivateUser }> {
  const email = normalizeEmail(rawText(body, 'email') ?? '');
  if (!isValidEmail(email)) throw badRequest(EMAIL_MESSAGE);
  const password = sentPassword(body, 'password', PASSWORD_REQUIRED_MESSAGE);
  if (email === user.email) throw badRequest(SAME_EMAIL_MESSAGE);
  // The password first: whether an address is taken is no one's to learn without it.
  await confirmPassword(user, password, client, WRONG_PASSWORD_MESSAGE);
  // With mail on, the old address is told, and the new one verified anew when addresses are.
  const mail = ctx.config.mail;
  const changed = await setEmail(ctx, user.id, email, !mail?.verifyAddresses, mail ? onAddressChanged(ctx, user.email) : undefined);
  return { message: EMAIL_CHANGED_MESSAGE, user: toPrivateUser(changed) };
}
