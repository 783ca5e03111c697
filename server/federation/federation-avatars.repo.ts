// The SQL of remote actors' pictures (migrations/0026_remote_avatars.ts): avatar_url, the address
// their server gives, and avatar, the local copy a `federation.avatar` job made of it.
import type { DB } from '../schema.ts';

/** The picture's address an actor has now, by their actor id; undefined for one never met. */
export async function findAvatarUrl(db: DB, uri: string): Promise<{ avatar_url: string | null } | undefined> {
  return db.selectFrom('remote_actors').select('avatar_url').where('uri', '=', uri).executeTakeFirst();
}

export interface AvatarSource {
  uri: string;
  avatar_url: string | null;
  avatar: string | null;
}

export function findAvatarSource(db: DB, actorId: number): Promise<AvatarSource | undefined> {
  return db.selectFrom('remote_actors').select(['uri', 'avatar_url', 'avatar']).where('id', '=', actorId).executeTakeFirst();
}

/**
 * The actor's copy set to `name` (null: none), if their picture's address is still `url`; the
 * copy it replaces (null: none), or undefined when the actor is gone or their address moved on.
 */
export async function replaceAvatar(trx: DB, actorId: number, url: string | null, name: string | null): Promise<{ previous: string | null } | undefined> {
  const current = await trx.selectFrom('remote_actors').select(['avatar_url', 'avatar']).where('id', '=', actorId).executeTakeFirst();
  if (!current || current.avatar_url !== url) return undefined;
  await trx.updateTable('remote_actors').set({ avatar: name }).where('id', '=', actorId).execute();
  return { previous: current.avatar };
}

/**
 * The actors' copies and addresses forgotten (a block): a picture met again afterwards is copied
 * anew. The names of the copies, for their files to be removed.
 */
export async function clearAvatars(trx: DB, actorIds: readonly number[]): Promise<string[]> {
  if (actorIds.length === 0) return [];
  const copies = await trx.selectFrom('remote_actors').select('avatar').where('id', 'in', actorIds).where('avatar', 'is not', null).execute();
  await trx.updateTable('remote_actors').set({ avatar: null, avatar_url: null }).where('id', 'in', actorIds)
    .where((eb) => eb.or([eb('avatar', 'is not', null), eb('avatar_url', 'is not', null)])).execute();
  return copies.map((row) => row.avatar!);
}
