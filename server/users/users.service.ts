// Profiles: reading a user as a given reader sees them, and editing one's own profile.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { removeImage, storeImage } from '../images/images.ts';
import { indexAuthorPosts } from '../search-index/search-index.service.ts';
import { queueProfileUpdate } from '../federation-outgoing/federation-outgoing.service.ts';
import type { DB, UserRow, UserUpdate } from '../schema.ts';
import { parseProfileInput } from './users.input.ts';
import { NO_CHANGES_MESSAGE, usernameKey, usernameSkeleton } from './users.names.ts';
import {
  bumpTokenVersion, countAdminAccounts, countPendingUserRows, deletePendingUserRow, listAdminIds, listPendingUserRows, updatePendingApproved, deleteResetLinks, deleteUserRow, findFollowing, findUserByEmail as findUserRowByEmail, findUserById,
  findUserByUsernameKey, findUserByUsernameSkeleton, findUsersByUsernameKeys, insertUser, markVerified, updateUser,
} from './users.repo.ts';
import { toPrivateUser, toPublicUser, type PublicUser } from './users.view.ts';

export const USER_NOT_FOUND = 'User not found';
export const USERNAME_TAKEN = 'Username is already taken';
export const EMAIL_TAKEN = 'Email is already registered';

type Reader = UserRow | undefined;

/**
 * Whether one user follows another. The users feature answers it (a profile shows it); the
 * follows feature asks here rather than keeping a second copy of the query.
 */
export function isFollowing(db: DB, followerId: number, followeeId: number): Promise<boolean> {
  return findFollowing(db, followerId, followeeId);
}

/** The user as stored now; other features call this inside their transactions too. */
export function findUser(db: DB, id: number): Promise<UserRow | undefined> {
  return findUserById(db, id);
}

/** The user holding this username key (users.names.ts), if any. */
export function findUserByKey(db: DB, key: string): Promise<UserRow | undefined> {
  return findUserByUsernameKey(db, key);
}

/**
 * A user others may reach (a profile, a follow, a mute): an account still waiting for approval
 * is as unknown as a missing one (DESIGN.md, Registration).
 */
export async function findUserOr404(db: DB, id: number): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user || user.pending) throw notFound(USER_NOT_FOUND);
  return user;
}

export async function findUserByUsernameOr404(ctx: AppContext, username: string): Promise<UserRow> {
  const user = await findUserByUsernameKey(ctx.db, usernameKey(username));
  if (!user || user.pending) throw notFound(USER_NOT_FOUND);
  return user;
}

/** The user themself and admins see private fields; any signed-in reader learns is_following. */
export async function userForReader(ctx: AppContext, user: UserRow, reader: Reader): Promise<PublicUser> {
  const view = reader && (reader.id === user.id || reader.level === 'admin')
    ? toPrivateUser(user)
    : toPublicUser(user);
  if (reader) view.is_following = reader.id !== user.id && await isFollowing(ctx.db, reader.id, user.id);
  return view;
}

/**
 * Applies the fields that differ from what is stored. The avatar is decoded and written before
 * the transaction (sharp never runs while the single connection is held); whichever file ends up
 * unused — the old one after success, the new one after a failure — is removed.
 */
export async function updateProfile(
  ctx: AppContext, user: UserRow, body: Body, file: Express.Multer.File | undefined,
): Promise<UserRow> {
  const input = parseProfileInput(body, user.username);
  const changes: UserUpdate = {};
  if (input.username !== undefined && input.username !== user.username) {
    changes.username = input.username;
    changes.username_key = usernameKey(input.username);
  }
  if (input.bio !== undefined && input.bio !== user.bio) changes.bio = input.bio;
  const dropAvatar = !file && input.removeAvatar && user.avatar !== null;
  if (dropAvatar) changes.avatar = null;
  if (Object.keys(changes).length === 0 && !file) throw badRequest(NO_CHANGES_MESSAGE);
  // Fail fast on a taken name before spending time on the image; checked again when writing.
  if (changes.username) await assertUsernameFree(ctx.db, changes.username, user.id);

  const avatar = file ? await storeImage(ctx.images, 'avatar', file.buffer) : undefined;
  if (avatar) changes.avatar = avatar;
  let previousAvatar: string | null;
  try {
    previousAvatar = await ctx.db.transaction().execute(async (trx) => {
      const current = await findUserById(trx, user.id);
      if (!current) throw notFound(USER_NOT_FOUND);
      if (changes.username) await assertUsernameFree(trx, changes.username, user.id);
      await updateUser(trx, user.id, changes);
      // Articles are found by their author's name: the index holds it with each one.
      if (changes.username) await indexAuthorPosts(trx, user.id);
      // Name, bio and avatar are the actor's: its followers elsewhere get Update(Person).
      await queueProfileUpdate(trx, ctx.config, user.id);
      return current.avatar;
    });
  } catch (err) {
    await removeImage(ctx.images, avatar);
    throw err;
  }
  if ('avatar' in changes && previousAvatar !== changes.avatar) {
    await removeImage(ctx.images, previousAvatar);
  }
  return findUserOr404(ctx.db, user.id);
}

/** Another account holding a look-alike name; one's own (`ana` to `Ana.`) is fine. */
async function assertUsernameFree(db: DB, username: string, ownId: number): Promise<void> {
  if (await findUserByUsernameSkeleton(db, usernameSkeleton(username), ownId)) throw conflict(USERNAME_TAKEN);
}

/** A name is taken by any look-alike (users.names.ts); an email by the same address. */
export async function assertAccountAvailable(db: DB, username: string, email: string): Promise<void> {
  await assertUsernameFree(db, username, 0);
  if (await findUserRowByEmail(db, email)) throw conflict(EMAIL_TAKEN);
}

export interface NewAccount {
  username: string;
  email: string;
  passwordHash: string;
  bio: string;
  /** False: the address is to answer a link first (DESIGN.md, Mail). */
  emailVerified: boolean;
  /** True: the account waits for an admin's approval (DESIGN.md, Registration). */
  pending?: boolean;
}

/** What else a change to an account writes, in its transaction (a mail queued, say). */
export type AlongWith = (trx: DB, user: UserRow) => Promise<void>;

/** Writes a new account, checking again that nobody took the name or email meanwhile. */
export function createUser(ctx: AppContext, account: NewAccount, alongWith?: AlongWith): Promise<UserRow> {
  return ctx.db.transaction().execute(async (trx) => {
    await assertAccountAvailable(trx, account.username, account.email);
    const user = await insertUser(trx, {
      username: account.username,
      username_key: usernameKey(account.username),
      email: account.email,
      password_hash: account.passwordHash,
      bio: account.bio,
      avatar: null,
      email_verified: account.emailVerified ? 1 : 0,
      pending: account.pending ? 1 : 0,
      created_at: nowIso(),
    });
    await alongWith?.(trx, user);
    return user;
  });
}

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return findUserRowByEmail(db, email);
}

export function recordLogin(db: DB, userId: number, at: string): Promise<void> {
  return updateUser(db, userId, { last_login: at });
}

/** Ends every session the user has (their token version moves); a token signed after this works. */
export async function endEverySession(db: DB, userId: number): Promise<void> {
  await bumpTokenVersion(db, userId);
}

/**
 * Stores a new password hash, ends every session and voids any password-reset link still out
 * (a link sent before the change must not undo it); returns the user as stored now.
 */
export async function setPasswordHash(db: DB, userId: number, passwordHash: string): Promise<UserRow> {
  await bumpTokenVersion(db, userId, { password_hash: passwordHash });
  await deleteResetLinks(db, userId);
  return findUserOr404(db, userId);
}

/**
 * Gives the user a new login email, unless another account has it (409); `verified` false: the new
 * address is to answer a link first.
 */
export function setEmail(ctx: AppContext, userId: number, email: string, verified: boolean, alongWith?: AlongWith): Promise<UserRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const holder = await findUserRowByEmail(trx, email);
    if (holder && holder.id !== userId) throw conflict(EMAIL_TAKEN);
    await updateUser(trx, userId, { email, email_verified: verified ? 1 : 0 });
    const user = await findUserOr404(trx, userId);
    await alongWith?.(trx, user);
    return user;
  });
}

/** The address the link was sent to is the account's: it is verified (false when it is not the account's now). */
export async function markEmailVerified(db: DB, userId: number, email: string): Promise<boolean> {
  return markVerified(db, userId, email);
}

/** How many administrators there are (the last one may not leave). */
export function countAdmins(db: DB): Promise<number> {
  return countAdminAccounts(db);
}

/** Deletes the account's row, once everything of it has gone (account/account.removal.ts). */
export function deleteUser(trx: DB, userId: number): Promise<boolean> {
  return deleteUserRow(trx, userId);
}

/** The users with these lower-cased names (username_key), as a mention links them (server/markdown/). */
export function usersByUsernameKeys(db: DB, keys: readonly string[]): Promise<Array<{ id: number; username: string }>> {
  return findUsersByUsernameKeys(db, keys);
}

/** The accounts waiting for an admin's approval, oldest first, and how many there are. */
export async function pendingUsers(db: DB, page: { skip: number; limit: number }): Promise<{ users: UserRow[]; total: number }> {
  const [users, total] = await Promise.all([listPendingUserRows(db, page), countPendingUserRows(db)]);
  return { users, total };
}

/** Lets a waiting account in; false when it waits no more (approved or rejected meanwhile). */
export function approvePendingUser(trx: DB, userId: number): Promise<boolean> {
  return updatePendingApproved(trx, userId);
}

/** Removes a waiting account, freeing its name and address; false when it waits no more. */
export function deletePendingUser(trx: DB, userId: number): Promise<boolean> {
  return deletePendingUserRow(trx, userId);
}

/** Who is told of what waits for an admin (an account to approve). */
export function adminIds(db: DB): Promise<number[]> {
  return listAdminIds(db);
}
