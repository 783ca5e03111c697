// The rules of what the inbox stores (DESIGN.md, Inbox), once the listener (federation.inbox.ts)
// has made the activity plain data: follows answered by an Accept queued in the follow's own
// transaction (never sent inside the request), likes and boosts counted without moving ranking or
// mojo, and a deleted actor's traces removed with every counter they moved. An actor stored with a
// picture's address new to us has its copy queued in the same transaction (federation.avatars.ts).
// Each is idempotent: servers deliver again when unsure.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { removeCommentsOfRemoteActors } from '../comments/remote-removal.service.ts';
import type { DB } from '../schema.ts';
import { activeBan } from '../users/users.bans.ts';
import { avatarUrlBefore, queueAvatarCopy, removeAvatarCopies } from './federation.avatars.ts';
import { queueActivity } from '../federation-outgoing/federation-outgoing.service.ts';
import { findActorUser } from './federation.repo.ts';
import { deleteReactions, deleteRemoteFollows } from './federation-blocks.repo.ts';
import {
  addToRemoteFollowersCount, deleteReaction, deleteRemoteActor, deleteRemoteFollower, findFollowByUri, findRemoteActorId, findRemoteActorIds,
  insertReaction, insertRemoteFollower, upsertRemoteActor, type ReactionKind, type RemoteActorValues,
} from './federation.inbox.repo.ts';

export type { ReactionKind, RemoteActorValues } from './federation.inbox.repo.ts';

/** A local account that may be followed: neither pending nor banned (a banned user's followers get nothing). */
export async function followableUser(ctx: AppContext, userId: number): Promise<boolean> {
  const user = await findActorUser(ctx.db, userId);
  return user !== undefined && activeBan(user) === undefined;
}

/** The actor's row made or refreshed in `trx`, and a copy of their picture queued when its address is new; its id. */
async function storeActor(trx: DB, actor: RemoteActorValues, at: string): Promise<number> {
  const before = await avatarUrlBefore(trx, actor.uri);
  const id = await upsertRemoteActor(trx, actor, at);
  await queueAvatarCopy(trx, id, before, actor.avatar_url);
  return id;
}

/** The actor as known now (a row made or refreshed); their row's id and handle. */
export async function rememberActor(ctx: AppContext, actor: RemoteActorValues): Promise<{ id: number; handle: string }> {
  const at = nowIso();
  return { id: await ctx.db.transaction().execute((trx) => storeActor(trx, actor, at)), handle: actor.handle };
}

/** A known actor, without asking their server: undefined for one never met (nothing of theirs is here). */
export function knownActor(ctx: AppContext, uri: string): Promise<{ id: number; handle: string } | undefined> {
  return findRemoteActorId(ctx.db, uri);
}

/**
 * Follow of a local user: a remote follower (counted once), and an Accept queued in the same
 * transaction, also for a repeated Follow (its sender may not have had the first Accept).
 */
export async function acceptFollow(ctx: AppContext, follow: { userId: number; actor: RemoteActorValues; followUri: string | null }): Promise<void> {
  const at = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    const actorId = await storeActor(trx, follow.actor, at);
    if (await insertRemoteFollower(trx, { userId: follow.userId, actorId, followUri: follow.followUri, at })) {
      await addToRemoteFollowersCount(trx, follow.userId, 1);
    }
    await queueActivity(trx, { type: 'accept', userId: follow.userId, actorUri: follow.actor.uri, followUri: follow.followUri });
  });
}

/** Undo(Follow): the follow of `userId`, or the one its Follow's id names; false when there was none. */
export async function undoFollow(ctx: AppContext, undo: { actorUri: string; userId?: number; followUri?: string }): Promise<boolean> {
  const actor = await findRemoteActorId(ctx.db, undo.actorUri);
  if (!actor) return false;
  return ctx.db.transaction().execute(async (trx) => {
    const userId = undo.userId ?? (undo.followUri ? await findFollowByUri(trx, actor.id, undo.followUri) : undefined);
    if (userId === undefined || !await deleteRemoteFollower(trx, userId, actor.id)) return false;
    await addToRemoteFollowersCount(trx, userId, -1);
    return true;
  });
}

/** Like or Announce of a listed article: counted once per actor and kind; false when nothing moved. */
export async function addReaction(
  ctx: AppContext, reaction: { postId: number; actor: RemoteActorValues; kind: ReactionKind; activityUri: string | null },
): Promise<boolean> {
  const at = nowIso();
  return ctx.db.transaction().execute(async (trx) => {
    const actorId = await storeActor(trx, reaction.actor, at);
    return insertReaction(trx, { postId: reaction.postId, actorId, kind: reaction.kind, activityUri: reaction.activityUri, at });
  });
}

/** Undo(Like), Undo(Announce): by article and kind, or by the activity's id alone; false when nothing moved. */
export async function removeReaction(
  ctx: AppContext, undo: { actorUri: string; which: { postId: number; kind: ReactionKind } | { activityUri: string } },
): Promise<boolean> {
  const actor = await findRemoteActorId(ctx.db, undo.actorUri);
  if (!actor) return false;
  return ctx.db.transaction().execute((trx) => deleteReaction(trx, actor.id, undo.which));
}

/**
 * Everything of a remote actor (Delete(Person)): their follows, comments and reactions, with the
 * counters they moved (as a block removes them: federation.blocks.ts), then their row (their
 * mutes go with it), in `trx`. The name of their picture's copy, for its file to go once committed.
 */
export async function forgetRemoteActor(trx: DB, actorId: number): Promise<string | null> {
  await deleteRemoteFollows(trx, [actorId]);
  await deleteReactions(trx, [actorId]);
  await removeCommentsOfRemoteActors(trx, [actorId], nowIso());
  return deleteRemoteActor(trx, actorId);
}

/** Delete(Person): false when the actor was never met. */
export async function removeDeletedActor(ctx: AppContext, actorUri: string): Promise<boolean> {
  const actor = await findRemoteActorId(ctx.db, actorUri);
  if (!actor) return false;
  const avatar = await ctx.db.transaction().execute((trx) => forgetRemoteActor(trx, actor.id));
  await removeAvatarCopies(ctx, [avatar]);
  return true;
}

/**
 * An inbox answered 410 Gone to a delivery: the actors it was for (their own inbox, or their
 * server's shared one) read there no more, an account deleted or a server closed. Their follows
 * go, with the counts, so that nothing more is queued for them; their comments and likes stay
 * (a Delete(Person), if one comes, takes those). How many follows went.
 */
export async function dropGoneFollowers(ctx: AppContext, actorUris: readonly string[]): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const ids = await findRemoteActorIds(trx, actorUris);
    return ids.length === 0 ? 0 : deleteRemoteFollows(trx, ids);
  });
}
