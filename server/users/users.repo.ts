// SQL for the users table.
import { sql } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { DB, NewUser, UserRow, UserUpdate } from '../schema.ts';

const userById = preparedQuery((db, p: { id: number }) => db.selectFrom('users').selectAll().where('id', '=', p.id));

/** Every signed-in request reads its user. */
export function findUserById(db: DB, id: number): Promise<UserRow | undefined> {
  return userById.first(db, { id });
}

/** Whether the reader follows the user, for the profile a signed-in reader sees. */
export async function findFollowing(db: DB, followerId: number, followeeId: number): Promise<boolean> {
  const row = await db.selectFrom('follows').select('follower_id')
    .where('follower_id', '=', followerId).where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return row !== undefined;
}

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserByUsernameKey(db: DB, usernameKey: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username_key', '=', usernameKey).executeTakeFirst();
}

/** The users whose username_key is one of `keys`: mentions (server/markdown/), by the unique index. */
export function findUsersByUsernameKeys(db: DB, keys: readonly string[]): Promise<Array<{ id: number; username: string }>> {
  return db.selectFrom('users').select(['id', 'username']).where('username_key', 'in', keys).where('pending', '=', 0).execute();
}

/** The holder of a look-alike name (users.names.ts, usernameSkeleton), by its expression index. */
export function findUserByUsernameSkeleton(
  db: DB, skeleton: string, exceptUserId = 0,
): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll()
    .where(sql<string>`replace(replace(replace(username_key, '.', ''), '-', ''), '_', '')`, '=', skeleton)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
}

export async function insertUser(db: DB, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: DB, id: number, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Moves the user's token version, ending every token signed with an older one; returns the new one. */
export async function bumpTokenVersion(db: DB, id: number, changes: UserUpdate = {}): Promise<number | undefined> {
  const row = await db.updateTable('users').set({ ...changes, token_version: sql`token_version + 1` })
    .where('id', '=', id).returning('token_version').executeTakeFirst();
  return row?.token_version;
}

/** Voids the user's password-reset links (migrations/0016_jobs.ts, account_tokens). */
export async function deleteResetLinks(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('account_tokens').where('user_id', '=', userId).where('purpose', '=', 'reset').execute();
}

/** Sets email_verified when the account still has `email`; whether it did. */
export async function markVerified(db: DB, id: number, email: string): Promise<boolean> {
  const result = await db.updateTable('users').set({ email_verified: 1 })
    .where('id', '=', id).where('email', '=', email).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countAdminAccounts(db: DB): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('level', '=', 'admin').executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the user row; true when there was one. What still points at it is set to NULL by its foreign key. */
export async function deleteUserRow(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The accounts waiting for approval, oldest first (users_pending, a partial index). */
export function listPendingUserRows(db: DB, page: { skip: number; limit: number }): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('pending', '=', 1)
    .orderBy('created_at').orderBy('id').limit(page.limit).offset(page.skip).execute();
}

export async function countPendingUserRows(db: DB): Promise<number> {
  const row = await db.selectFrom('users').where('pending', '=', 1)
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Claims a waiting account: of two admins approving it at once, one changes it. */
export async function updatePendingApproved(db: DB, id: number): Promise<boolean> {
  const result = await db.updateTable('users').set({ pending: 0 }).where('id', '=', id).where('pending', '=', 1).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes a waiting account (its links go with it by the foreign key); false when it is not waiting. */
export async function deletePendingUserRow(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).where('pending', '=', 1).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Every admin's id (users_level). */
export async function listAdminIds(db: DB): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('level', '=', 'admin').where('pending', '=', 0).orderBy('id').execute();
  return rows.map((row) => row.id);
}
