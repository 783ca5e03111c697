// Registration and login: the rules of SPEC §5 and DESIGN.md, Accounts.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, conflict, forbidden, unauthorized } from '../errors.ts';
import type { Body } from '../http.ts';
import { rawText, trimmedText } from '../http.ts';
import { tooManyAttempts } from '../rate-limits.ts';
import type { UserRow } from '../schema.ts';
import { activeBan, banMessage } from '../users/users.bans.ts';
import {
  BIO_MAX, USERNAME_CHARACTERS_MESSAGE, USERNAME_MAX, USERNAME_MIN, hasUsernameCharacters,
  isValidEmail, normalizeEmail, usernameKey,
} from '../users/users.names.ts';
import { findUserByEmail, findUserByUsernameKey, insertUser, updateUser } from '../users/users.repo.ts';
import type { LoginGuard } from './login-throttle.ts';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords.ts';
import { signAccessToken } from './tokens.ts';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 1000;
export const BAD_CREDENTIALS = 'Incorrect email or password';
export const USERNAME_TAKEN = 'Username is already taken';
export const EMAIL_TAKEN = 'Email is already registered';

interface Registration {
  username: string;
  email: string;
  password: string;
  bio: string;
}

export function validateRegistration(body: Body): Registration {
  const username = trimmedText(body, 'username') ?? '';
  if (username.length < USERNAME_MIN) throw badRequest('Username must be at least 3 characters long');
  if (username.length > USERNAME_MAX) throw badRequest('Username must be between 3 and 35 characters');
  if (!hasUsernameCharacters(username)) throw badRequest(USERNAME_CHARACTERS_MESSAGE);

  const email = normalizeEmail(rawText(body, 'email') ?? '');
  if (!isValidEmail(email)) throw badRequest('Please enter a valid email address');

  const password = rawText(body, 'password') ?? '';
  if (password.length < PASSWORD_MIN) throw badRequest('Password must be at least 6 characters long');
  if (password.length > PASSWORD_MAX) throw badRequest('Password cannot exceed 1000 characters');
  const confirmation = rawText(body, 'confirm_password');
  if (confirmation !== undefined && confirmation !== password) throw badRequest('Passwords do not match');

  const bio = trimmedText(body, 'bio') ?? '';
  if (bio.length > BIO_MAX) throw badRequest('Biography cannot exceed 500 characters');
  return { username, email, password, bio };
}

export async function register(ctx: AppContext, body: Body): Promise<UserRow> {
  const input = validateRegistration(body);
  const key = usernameKey(input.username);
  await assertAvailable(ctx, key, input.email);
  // Hash before writing: never hold the single SQLite connection across argon2.
  const passwordHash = await hashPassword(ctx.config, input.password);
  try {
    return await insertUser(ctx.db, {
      username: input.username,
      username_key: key,
      email: input.email,
      password_hash: passwordHash,
      bio: input.bio,
      avatar: null,
      created_at: nowIso(),
    });
  } catch (err) {
    // Two registrations raced past the checks above: the unique indexes decide.
    await assertAvailable(ctx, key, input.email);
    throw err;
  }
}

async function assertAvailable(ctx: AppContext, key: string, email: string): Promise<void> {
  if (await findUserByUsernameKey(ctx.db, key)) throw conflict(USERNAME_TAKEN);
  if (await findUserByEmail(ctx.db, email)) throw conflict(EMAIL_TAKEN);
}

export interface LoginResult {
  user: UserRow;
  accessToken: string;
}

/** Who is trying to sign in, for the login throttle (login-throttle.ts). */
export interface LoginClient {
  guard: LoginGuard;
  ip: string;
}

export async function login(ctx: AppContext, body: Body, client: LoginClient): Promise<LoginResult> {
  const email = normalizeEmail(rawText(body, 'email') ?? '');
  const password = rawText(body, 'password') ?? '';
  if (!email || !password) throw badRequest('Email and password are required');
  // Counted as a failure from here until the password proves right.
  const wait = client.guard.begin(client.ip, email);
  if (wait > 0) throw tooManyAttempts(wait);
  if (password.length > PASSWORD_MAX) throw unauthorized(BAD_CREDENTIALS);

  const user = await findUserByEmail(ctx.db, email);
  const matches = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstNothing(ctx.config, password);
  if (!user || !matches) throw unauthorized(BAD_CREDENTIALS);
  client.guard.succeeded(client.ip, email);

  const ban = activeBan(user);
  if (ban) throw forbidden(banMessage(ban));

  const lastLogin = nowIso();
  await updateUser(ctx.db, user.id, { last_login: lastLogin });
  const signedIn = { ...user, last_login: lastLogin };
  return { user: signedIn, accessToken: signAccessToken(ctx.config, signedIn) };
}
