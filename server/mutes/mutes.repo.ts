// SQL for mutes: user_mutes and hashtag_mutes (migrations/0010_mutes.ts). What the lists leave out
// is server/muted-posts.ts's, beside the lists' own queries.
import { sql } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { DB, UserRow } from '../schema.ts';

export type MutedUserRow = UserRow & { muted_at: string };

export function listMutedUsers(db: DB, userId: number): Promise<MutedUserRow[]> {
  return db.selectFrom('user_mutes').innerJoin('users', 'users.id', 'user_mutes.muted_user_id')
    .selectAll('users').select('user_mutes.created_at as muted_at')
    .where('user_mutes.user_id', '=', userId)
    .orderBy('users.username_key').execute();
}

export function listMutedHashtags(db: DB, userId: number): Promise<Array<{ hashtag: string; muted_at: string }>> {
  return db.selectFrom('hashtag_mutes').select(['tag as hashtag', 'created_at as muted_at'])
    .where('user_id', '=', userId).orderBy('tag').execute();
}

/** Of these authors, the ones `userId` muted. */
export async function findMutedAmong(db: DB, userId: number, authorIds: readonly number[]): Promise<number[]> {
  if (authorIds.length === 0) return [];
  const rows = await db.selectFrom('user_mutes').select('muted_user_id')
    .where('user_id', '=', userId).where('muted_user_id', 'in', [...authorIds]).execute();
  return rows.map((row) => row.muted_user_id);
}

const anyMute = preparedQuery((db, p: { userId: number }) =>
  db.selectFrom('user_mutes').select('user_id').where('user_id', '=', p.userId)
    .unionAll(db.selectFrom('hashtag_mutes').select('user_id').where('user_id', '=', p.userId))
    .limit(1));

/** Whether the user muted anyone or anything: every signed-in read of a public list asks. */
export async function findAnyMute(db: DB, userId: number): Promise<boolean> {
  return (await anyMute.first(db, { userId })) !== undefined;
}

const oneMute = preparedQuery((db, p: { userId: number; mutedId: number }) =>
  db.selectFrom('user_mutes').select('user_id').where('user_id', '=', p.userId).where('muted_user_id', '=', p.mutedId));

export async function findUserMute(db: DB, userId: number, mutedId: number): Promise<boolean> {
  return (await oneMute.first(db, { userId, mutedId })) !== undefined;
}

export async function countMutes(db: DB, table: 'user_mutes' | 'hashtag_mutes' | 'user_remote_mutes', userId: number): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when the row is new. */
export async function insertUserMute(trx: DB, userId: number, mutedId: number, at: string): Promise<boolean> {
  const result = await trx.insertInto('user_mutes').values({ user_id: userId, muted_user_id: mutedId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'muted_user_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteUserMute(trx: DB, userId: number, mutedId: number): Promise<boolean> {
  const result = await trx.deleteFrom('user_mutes').where('user_id', '=', userId).where('muted_user_id', '=', mutedId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertHashtagMute(trx: DB, userId: number, tag: string, at: string): Promise<boolean> {
  const result = await trx.insertInto('hashtag_mutes').values({ user_id: userId, tag, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'tag']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteHashtagMute(trx: DB, userId: number, tag: string): Promise<boolean> {
  const result = await trx.deleteFrom('hashtag_mutes').where('user_id', '=', userId).where('tag', '=', tag).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** An account's own mutes, and every mute of it. */
export async function deleteMutesOf(trx: DB, userId: number): Promise<void> {
  await trx.deleteFrom('user_mutes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('user_mutes').where('muted_user_id', '=', userId).execute();
  await trx.deleteFrom('hashtag_mutes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('user_remote_mutes').where('user_id', '=', userId).execute();
}

// Mutes of remote authors (user_remote_mutes): only their comments and notices are concerned, so
// they leave the lists' checks (findAnyMute) as they are.

export interface RemoteActorRow {
  id: number;
  handle: string;
  name: string;
  url: string | null;
  uri: string;
  avatar_url: string | null;
}

/** A remote actor by handle (user@domain): the domain by its index, the user part in any case. */
export function findRemoteActorByHandle(db: DB, handle: { user: string; domain: string }): Promise<RemoteActorRow | undefined> {
  return db.selectFrom('remote_actors').select(['id', 'handle', 'name', 'url', 'uri', 'avatar_url'])
    .where('domain', '=', handle.domain)
    .where(sql<string>`lower(handle)`, '=', `${handle.user}@${handle.domain}`.toLowerCase())
    .orderBy('id').limit(1).executeTakeFirst();
}

export type MutedRemoteRow = RemoteActorRow & { muted_at: string };

export function listMutedRemoteActors(db: DB, userId: number): Promise<MutedRemoteRow[]> {
  return db.selectFrom('user_remote_mutes').innerJoin('remote_actors', 'remote_actors.id', 'user_remote_mutes.actor_id')
    .select(['remote_actors.id', 'remote_actors.handle', 'remote_actors.name', 'remote_actors.url', 'remote_actors.uri',
      'remote_actors.avatar_url', 'user_remote_mutes.created_at as muted_at'])
    .where('user_remote_mutes.user_id', '=', userId)
    .orderBy('remote_actors.handle').execute();
}

/** Of these remote actors, the ones `userId` muted. */
export async function findMutedRemoteAmong(db: DB, userId: number, actorIds: readonly number[]): Promise<number[]> {
  if (actorIds.length === 0) return [];
  const rows = await db.selectFrom('user_remote_mutes').select('actor_id')
    .where('user_id', '=', userId).where('actor_id', 'in', [...actorIds]).execute();
  return rows.map((row) => row.actor_id);
}

/** True when the row is new. */
export async function insertRemoteMute(trx: DB, userId: number, actorId: number, at: string): Promise<boolean> {
  const result = await trx.insertInto('user_remote_mutes').values({ user_id: userId, actor_id: actorId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'actor_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteRemoteMute(trx: DB, userId: number, actorId: number): Promise<boolean> {
  const result = await trx.deleteFrom('user_remote_mutes').where('user_id', '=', userId).where('actor_id', '=', actorId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
