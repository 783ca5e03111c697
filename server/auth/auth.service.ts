// Registration and login: the rules of SPEC §5 and DESIGN.md, Accounts.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, badRequestIf, forbidden, unauthorized } from '../errors.ts';
import type { Body } from '../http.ts';
import { lineText, multilineText, rawText } from '../http.ts';
import { tooManyAttempts } from '../rate-limits.ts';
import type { UserRow } from '../schema.ts';
import { activeBan, banMessage } from '../users/users.bans.ts';
import {
  EMAIL_MESSAGE, PASSWORD_MAX, PASSWORDS_DIFFER_MESSAGE, bioProblem, isValidEmail, normalizeEmail,
  passwordProblem, usernameProblem,
} from '../users/users.names.ts';
import { assertAccountAvailable, createUser, findUserByEmail, recordLogin } from '../users/users.service.ts';
import type { LoginGuard } from './login-throttle.ts';
import { queueVerification } from './email-verification.ts';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords.ts';
import { signAccessToken } from './tokens.ts';
import { signChallenge } from './two-factor.challenge.ts';
import { admission, admit, type Admission } from '../registration/admission.ts';
import { AWAITING_APPROVAL_MESSAGE } from '../../shared/registration.ts';

export const BAD_CREDENTIALS = 'Incorrect email or password';

interface Registration {
  username: string;
  email: string;
  password: string;
  bio: string;
}

export function validateRegistration(body: Body): Registration {
  const username = lineText(body, 'username') ?? '';
  badRequestIf(usernameProblem(username, 'register'));

  const email = normalizeEmail(rawText(body, 'email') ?? '');
  if (!isValidEmail(email)) throw badRequest(EMAIL_MESSAGE);

  const password = rawText(body, 'password') ?? '';
  badRequestIf(passwordProblem(password));
  const confirmation = rawText(body, 'confirm_password');
  if (confirmation !== undefined && confirmation !== password) throw badRequest(PASSWORDS_DIFFER_MESSAGE);

  const bio = multilineText(body, 'bio') ?? '';
  badRequestIf(bioProblem(bio));
  return { username, email, password, bio };
}

/** A new account and how it was let in: 'pending' waits for an admin's approval. */
export interface Registered {
  user: UserRow;
  status: 'active' | 'pending';
}

/** The CLI's create-admin lets its account in whatever the mode. */
export const LET_IN: Admission = { pending: false, invite: undefined };

export async function register(ctx: AppContext, body: Body, letIn?: Admission): Promise<Registered> {
  // The mode in force first: a closed site says so whatever the form holds.
  const admitted = letIn ?? await admission(ctx, body);
  const input = validateRegistration(body);
  await assertAccountAvailable(ctx.db, input.username, input.email);
  // Hash before writing: never hold the single SQLite connection across argon2.
  const passwordHash = await hashPassword(ctx.config, input.password);
  // With mail on and EMAIL_VERIFICATION on, the address answers a link before its account writes.
  const verify = ctx.config.mail?.verifyAddresses === true;
  const user = await createUser(ctx, {
    username: input.username, email: input.email, passwordHash, bio: input.bio, emailVerified: !verify, pending: admitted.pending,
  }, async (trx, created) => {
    await admit(trx, admitted, created);
    if (verify) await queueVerification(trx, created);
  });
  return { user, status: admitted.pending ? 'pending' : 'active' };
}

export interface LoginResult {
  user: UserRow;
  accessToken: string;
}

/** The password was right and two-factor sign-in is on: a code must follow (two-factor.service.ts). */
export interface TwoFactorRequired {
  challenge: string;
}

/** Who is trying to sign in, for the login throttle (login-throttle.ts). */
export interface LoginClient {
  guard: LoginGuard;
  ip: string;
}

/**
 * A signed-in user proves it is them before a change to their account (a new password or
 * email, its removal): the password is checked as a login checks it, throttled by the same
 * counts (auth.limits.ts), so a stolen session guesses no faster than a stranger at the login
 * form. A wrong password is 403 `wrongDetail`: the session itself is good.
 */
export async function confirmPassword(
  user: UserRow, password: string, client: LoginClient, wrongDetail: string,
): Promise<void> {
  const wait = await client.guard.begin(client.ip, user.email);
  if (wait > 0) throw tooManyAttempts(wait);
  if (password.length > PASSWORD_MAX || !await verifyPassword(user.password_hash, password)) throw forbidden(wrongDetail);
  await client.guard.succeeded(client.ip, user.email);
}

export async function login(ctx: AppContext, body: Body, client: LoginClient): Promise<LoginResult | TwoFactorRequired> {
  const email = normalizeEmail(rawText(body, 'email') ?? '');
  const password = rawText(body, 'password') ?? '';
  if (!email || !password) throw badRequest('Email and password are required');
  // Counted as a failure from here until the password proves right.
  const wait = await client.guard.begin(client.ip, email);
  if (wait > 0) throw tooManyAttempts(wait);
  if (password.length > PASSWORD_MAX) throw unauthorized(BAD_CREDENTIALS);

  const user = await findUserByEmail(ctx.db, email);
  const matches = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstNothing(ctx.config, password);
  if (!user || !matches) throw unauthorized(BAD_CREDENTIALS);
  await client.guard.succeeded(client.ip, email);

  const ban = activeBan(user);
  if (ban) throw forbidden(banMessage(ban));
  if (user.pending) throw forbidden(AWAITING_APPROVAL_MESSAGE);
  // No token yet: the challenge proves the password for a few minutes, and only a code turns it into a session.
  if (user.two_factor_enabled === 1) return { challenge: signChallenge(ctx.config, user) };
  return signIn(ctx, user);
}

/** The session a good sign-in gets: its time recorded, a new token. */
export async function signIn(ctx: AppContext, user: UserRow): Promise<LoginResult> {
  const lastLogin = nowIso();
  await recordLogin(ctx.db, user.id, lastLogin);
  const signedIn = { ...user, last_login: lastLogin };
  return { user: signedIn, accessToken: signAccessToken(ctx.config, signedIn) };
}
