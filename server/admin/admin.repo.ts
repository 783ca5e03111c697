// SQL for the admin panel: user lists and counters, level and ban changes.
import { type ExpressionBuilder, sql } from 'kysely';
import type { Page } from '../http.ts';
import { contains } from '../text-search.ts';
import type { Database, DB, UserLevel, UserRow } from '../schema.ts';

export interface AdminUserFilter {
  level?: UserLevel;
  /** Already lower-cased: matched inside username_key or email (both stored lower-cased). */
  search?: string;
  /** Only users banned at this ISO time. */
  bannedAsOf?: string;
}

/** The users page, newest accounts first; exported so a test can check its plan. */
export function adminUsersQuery(db: DB, filter: AdminUserFilter, page: Page) {
  return filteredUsers(db, filter).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.skip);
}

/** Accounts waiting for approval are the Pending tab's (registration/), in no other list or count. */
function filteredUsers(db: DB, filter: AdminUserFilter) {
  let query = db.selectFrom('users').where('pending', '=', 0);
  if (filter.level) query = query.where('level', '=', filter.level);
  if (filter.bannedAsOf) query = query.where(currentlyBanned(filter.bannedAsOf));
  const search = filter.search;
  if (search) query = query.where((eb) => eb.or([contains('username_key', search), contains('email', search)]));
  return query;
}

export function listAdminUsers(db: DB, filter: AdminUserFilter, page: Page): Promise<UserRow[]> {
  return adminUsersQuery(db, filter, page).execute();
}

export async function countAdminUsers(db: DB, filter: AdminUserFilter): Promise<number> {
  const row = await filteredUsers(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAdmins(db: DB): Promise<number> {
  return countAdminUsers(db, { level: 'admin' });
}

export async function countActivePosts(db: DB): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'published').where('archived', '=', 0).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Banned right now: permanent, or temporary and not yet over. `banned_at is not null` keeps the partial index usable. */
function currentlyBanned(now: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => eb.and([
    eb('users.banned_at', 'is not', null),
    eb.or([eb('users.ban_permanent', '=', 1), eb('users.ban_until', '>', now)]),
  ]);
}

export interface BannedUserRow {
  id: number;
  username: string;
  email: string;
  ban_permanent: number;
  ban_reason: string | null;
  ban_until: string | null;
  banned_at: string | null;
  banned_by: string | null;
}

export function listBannedUsers(db: DB, now: string, page: Page): Promise<BannedUserRow[]> {
  return db.selectFrom('users')
    .leftJoin('users as banner', 'banner.id', 'users.banned_by')
    .select(['users.id', 'users.username', 'users.email', 'users.ban_permanent', 'users.ban_reason',
      'users.ban_until', 'users.banned_at', 'banner.username as banned_by'])
    .where(currentlyBanned(now))
    .orderBy('users.banned_at', 'desc').orderBy('users.id', 'desc')
    .limit(page.limit).offset(page.skip)
    .execute();
}

export async function countBannedUsers(db: DB, now: string): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'))
    .where(currentlyBanned(now)).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function updateUserLevel(db: DB, id: number, level: UserLevel): Promise<UserRow> {
  return db.updateTable('users').set({ level }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export interface BanFields {
  banned_at: string;
  ban_permanent: number;
  ban_until: string | null;
  ban_reason: string;
  banned_by: number | null;
}

/** Sets the ban and bumps the token version, so every token issued before it stops working. */
export function updateUserBan(db: DB, id: number, ban: BanFields): Promise<UserRow> {
  return db.updateTable('users')
    .set({ ...ban, token_version: sql`token_version + 1` })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function clearUserBan(db: DB, id: number): Promise<UserRow> {
  return db.updateTable('users')
    .set({ banned_at: null, ban_permanent: 0, ban_until: null, ban_reason: null, banned_by: null })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
