// SQL for the users table.
import { sql } from 'kysely';
import type { Connection } from '../connection.ts';
import type { DB } from '../db.ts';
import type { NewUser, UserRow, UserUpdate } from '../schema.ts';

/** Plain SQL: every signed-in request reads its user (connection.ts). */
export function findUserById(conn: Connection, id: number): UserRow | undefined {
  return conn.get<UserRow>('SELECT * FROM users WHERE id = ?', id);
}

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserByUsernameKey(db: DB, usernameKey: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username_key', '=', usernameKey).executeTakeFirst();
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
