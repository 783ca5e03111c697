// The SQL of what the inbox stores (migrations/0022_federation.ts): the remote actors met, their
// follows of local users (users.remote_followers_count beside them), their likes and boosts of
// local articles (posts.likes_count, boosts_count beside them). Replies are comments: comments/.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/** What Beatnik keeps of a remote actor: what a comment shows of them, and where to deliver. */
export interface RemoteActorValues {
  uri: string;
  /** user@domain, the domain lower-cased. */
  handle: string;
  domain: string;
  name: string;
  url: string | null;
  avatar_url: string | null;
  inbox: string;
  shared_inbox: string | null;
}

/** The actor's row, made or brought up to date from what they say of themselves now; its id. */
export async function upsertRemoteActor(db: DB, actor: RemoteActorValues, at: string): Promise<number> {
  const row = await db.insertInto('remote_actors').values({ ...actor, updated_at: at })
    .onConflict((oc) => oc.column('uri').doUpdateSet({
      handle: actor.handle, domain: actor.domain, name: actor.name, url: actor.url, avatar_url: actor.avatar_url,
      inbox: actor.inbox, shared_inbox: actor.shared_inbox, updated_at: at,
    }))
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A known actor's row id and handle, by their actor id. */
export function findRemoteActorId(db: DB, uri: string): Promise<{ id: number; handle: string } | undefined> {
  return db.selectFrom('remote_actors').select(['id', 'handle']).where('uri', '=', uri).executeTakeFirst();
}

/** The row ids of those of the actors that are known here, by their actor ids (remote_actors.uri is unique). */
export async function findRemoteActorIds(db: DB, uris: readonly string[]): Promise<number[]> {
  if (uris.length === 0) return [];
  return (await db.selectFrom('remote_actors').select('id').where('uri', 'in', uris).execute()).map((row) => row.id);
}

/** The actor's row gone; the name of their picture's copy, if they had one. */
export async function deleteRemoteActor(trx: DB, id: number): Promise<string | null> {
  const row = await trx.deleteFrom('remote_actors').where('id', '=', id).returning('avatar').executeTakeFirst();
  return row?.avatar ?? null;
}

/** True when the follow is new; a repeated Follow keeps its row and takes its new id. */
export async function insertRemoteFollower(trx: DB, f: { userId: number; actorId: number; followUri: string | null; at: string }): Promise<boolean> {
  const inserted = await trx.insertInto('remote_followers')
    .values({ user_id: f.userId, actor_id: f.actorId, follow_uri: f.followUri, created_at: f.at })
    .onConflict((oc) => oc.columns(['user_id', 'actor_id']).doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  await trx.updateTable('remote_followers').set({ follow_uri: f.followUri })
    .where('user_id', '=', f.userId).where('actor_id', '=', f.actorId).execute();
  return false;
}

/** False when there was no such follow. */
export async function deleteRemoteFollower(trx: DB, userId: number, actorId: number): Promise<boolean> {
  const result = await trx.deleteFrom('remote_followers').where('user_id', '=', userId).where('actor_id', '=', actorId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The local user a follow of this actor's, named by its Follow's id, is of. */
export async function findFollowByUri(db: DB, actorId: number, followUri: string): Promise<number | undefined> {
  const row = await db.selectFrom('remote_followers').select('user_id')
    .where('actor_id', '=', actorId).where('follow_uri', '=', followUri).executeTakeFirst();
  return row?.user_id;
}

export async function addToRemoteFollowersCount(trx: DB, userId: number, delta: 1 | -1): Promise<void> {
  await trx.updateTable('users').set({ remote_followers_count: sql`remote_followers_count + ${delta}` }).where('id', '=', userId).execute();
}

export type ReactionKind = 'like' | 'boost';

const COUNTER = { like: 'likes_count', boost: 'boosts_count' } as const;

/**
 * A Like or Announce of a listed article (active, published) counted once per actor; false when
 * it was counted already or the article takes none.
 */
export async function insertReaction(trx: DB, r: { postId: number; actorId: number; kind: ReactionKind; activityUri: string | null; at: string }): Promise<boolean> {
  const listed = await trx.selectFrom('posts').select('id')
    .where('id', '=', r.postId).where('archived', '=', 0).where('status', '=', 'published').executeTakeFirst();
  if (!listed) return false;
  const inserted = await trx.insertInto('post_reactions')
    .values({ post_id: r.postId, actor_id: r.actorId, kind: r.kind, activity_uri: r.activityUri, created_at: r.at })
    .onConflict((oc) => oc.columns(['post_id', 'actor_id', 'kind']).doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await trx.updateTable('posts').set({ [COUNTER[r.kind]]: sql`${sql.ref(COUNTER[r.kind])} + 1` }).where('id', '=', r.postId).execute();
  return true;
}

/** The actor's reaction, named by its article and kind, or by its activity's id (an Undo naming only that). */
export async function deleteReaction(trx: DB, actorId: number, which: { postId: number; kind: ReactionKind } | { activityUri: string }): Promise<boolean> {
  let query = trx.deleteFrom('post_reactions').where('actor_id', '=', actorId);
  query = 'activityUri' in which ? query.where('activity_uri', '=', which.activityUri)
    : query.where('post_id', '=', which.postId).where('kind', '=', which.kind);
  const gone = await query.returning(['post_id', 'kind']).execute();
  for (const row of gone) {
    await trx.updateTable('posts').set({ [COUNTER[row.kind]]: sql`${sql.ref(COUNTER[row.kind])} - 1` }).where('id', '=', row.post_id).execute();
  }
  return gone.length > 0;
}
