// What Beatnik does with the activities other servers post to its inboxes (DESIGN.md, Inbox).
// Fedify has verified each one's signature against its actor's key before a listener runs
// (unsigned or badly signed: 401), and that the key is that actor's; anything without a listener
// is accepted and ignored (202). A listener makes the activity plain data and hands it to
// federation.inbox.service.ts (follows, reactions, deleted actors) or comments/ (replies). An
// object must be its activity's actor's own: a Note attributed to someone else is ignored.
import {
  Activity, Announce, Article, Create, Delete, Follow, isActor, Like, Note, Undo, Update, type Object as APObject,
} from '@fedify/vocab';
import type { Context, InboxContext, InboxListenerSetters, RequestContext, UnverifiedActivityReason } from '@fedify/fedify';
import type { AppContext } from '../context.ts';
import {
  addRemoteComment, editRemoteComment, removeRemoteComment, type ReplyTarget,
} from '../comments/comments.remote.service.ts';
import {
  acceptFollow, addReaction, followableUser, knownActor, rememberActor, removeDeletedActor, removeReaction, undoFollow,
  type ReactionKind,
} from './federation.inbox.service.ts';
import { ID_MAX, remoteActorValues } from './federation.remote-actors.ts';
import { blockOfHandle } from './federation.blocks.ts';

type Fed = InboxContext<AppContext>;

export function listenToInbox(inbox: InboxListenerSetters<AppContext>): void {
  inbox
    .on(Follow, onFollow)
    .on(Undo, onUndo)
    .on(Create, onCreate)
    .on(Update, onUpdate)
    .on(Delete, onDelete)
    .on(Like, (fed, like) => onReaction(fed, like, 'like'))
    .on(Announce, (fed, announce) => onReaction(fed, announce, 'boost'))
    .onUnverifiedActivity(onUnverified)
    .onError((fed, error) => fed.data.log.warn({ err: error.message }, 'an inbox activity failed'));
}

/** What was stored changed what pages and lists show: the inbox is no API write, which would empty the cache itself. */
function changed(ctx: AppContext, moved: boolean): void {
  if (moved) ctx.readCache?.invalidate();
}

const positive = (value: string | undefined) => {
  const n = Number(value);
  return value !== undefined && /^\d+$/.test(value) && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** A local user's id from their actor's id. */
function localUserId(fed: Context<AppContext>, uri: URL | null): number | undefined {
  const parsed = uri ? fed.parseUri(uri) : null;
  return parsed?.type === 'actor' ? positive(parsed.identifier) : undefined;
}

/** A local article's id from its Article's id. */
function localPostId(fed: Context<AppContext>, uri: URL | null): number | undefined {
  const parsed = uri ? fed.parseUri(uri) : null;
  return parsed?.type === 'object' && parsed.class === Article ? positive(parsed.values.id) : undefined;
}

/** What a Note answers: a local article, a local comment (a Note of ours), or a reply stored here. */
function replyTarget(fed: Context<AppContext>, uri: URL | null): ReplyTarget | undefined {
  if (!uri) return undefined;
  const parsed = fed.parseUri(uri);
  if (parsed?.type === 'object' && parsed.class === Article) {
    const postId = positive(parsed.values.id);
    return postId === undefined ? undefined : { postId };
  }
  if (parsed?.type === 'object' && parsed.class === Note) {
    const commentId = positive(parsed.values.id);
    return commentId === undefined ? undefined : { commentId };
  }
  return uri.origin === new URL(fed.origin).origin ? undefined : { remoteUri: uri.href };
}

/** The object is its activity's actor's: every attributedTo it names is that actor. */
function isActorsOwn(object: APObject, activity: Activity): boolean {
  const actor = activity.actorId?.href;
  const by = object.attributionIds;
  return actor !== undefined && by.length > 0 && by.every((id) => id.href === actor);
}

/** The activity's object as sent (or fetched from its own server), or null when it cannot be had. */
function objectOf(fed: Fed, activity: Activity): Promise<APObject | null> {
  return activity.getObject({ documentLoader: fed.documentLoader, contextLoader: fed.contextLoader, suppressError: true })
    .catch(() => null);
}

/** The activity's actor as Beatnik keeps it; undefined when it cannot be had, or its handle is blocked. */
async function actorOf(fed: Fed, activity: Activity) {
  const actor = await activity.getActor({ documentLoader: fed.documentLoader, contextLoader: fed.contextLoader, suppressError: true })
    .catch(() => null);
  const values = await remoteActorValues(actor);
  if (!values) return undefined;
  const blocked = await blockOfHandle(fed.data.db, values.handle);
  if (!blocked) return values;
  fed.data.log.info({ actor: values.uri, handle: values.handle, blocked }, 'an activity from a blocked account or server, by its handle, is ignored');
  return undefined;
}

async function onFollow(fed: Fed, follow: Follow): Promise<void> {
  const userId = localUserId(fed, follow.objectId);
  if (userId === undefined || !await followableUser(fed.data, userId)) return;
  const actor = await actorOf(fed, follow);
  if (!actor || actor.uri !== follow.actorId?.href) return;
  await acceptFollow(fed.data, { userId, actor, followUri: follow.id?.href ?? null });
}

async function onUndo(fed: Fed, undo: Undo): Promise<void> {
  const actorUri = undo.actorId?.href;
  if (!actorUri) return;
  const undone = await objectOf(fed, undo);
  // The undone activity must be the same actor's: nobody takes back another's follow or like.
  if (undone instanceof Activity && undone.actorId?.href !== actorUri) return;
  if (undone instanceof Follow) {
    const userId = localUserId(fed, undone.objectId);
    if (userId !== undefined) await undoFollow(fed.data, { actorUri, userId });
    return;
  }
  if (undone instanceof Like || undone instanceof Announce) {
    const postId = localPostId(fed, undone.objectId);
    const kind: ReactionKind = undone instanceof Like ? 'like' : 'boost';
    if (postId !== undefined) changed(fed.data, await removeReaction(fed.data, { actorUri, which: { postId, kind } }));
    return;
  }
  // Named by its id only, and not to be had: whichever of the actor's follows or reactions it was.
  const undoneUri = undo.objectId?.href;
  if (!undoneUri || undone) return;
  if (await undoFollow(fed.data, { actorUri, followUri: undoneUri })) return;
  changed(fed.data, await removeReaction(fed.data, { actorUri, which: { activityUri: undoneUri } }));
}

async function onCreate(fed: Fed, create: Create): Promise<void> {
  const note = await objectOf(fed, create);
  if (!(note instanceof Note) || !note.id || !isActorsOwn(note, create)) return;
  const target = replyTarget(fed, note.replyTargetId);
  if (!target) return;
  if (note.id.href.length > ID_MAX) return;
  const actor = await actorOf(fed, create);
  if (!actor || actor.uri !== create.actorId?.href) return;
  const writer = await rememberActor(fed.data, actor);
  const outcome = await addRemoteComment(fed.data, { writer, uri: note.id.href, html: note.content?.toString() ?? '', target });
  changed(fed.data, outcome === 'added');
}

async function onUpdate(fed: Fed, update: Update): Promise<void> {
  const object = await objectOf(fed, update);
  const actorUri = update.actorId?.href;
  if (!object || !actorUri) return;
  if (object instanceof Note) {
    if (!object.id || !isActorsOwn(object, update)) return;
    const writer = await knownActor(fed.data, actorUri);
    if (!writer) return;
    changed(fed.data, await editRemoteComment(fed.data, { writerId: writer.id, uri: object.id.href, html: object.content?.toString() ?? '' }));
    return;
  }
  // Update(Person) of an actor met before: their name and avatar as their comments show them.
  if (isActor(object) && object.id?.href === actorUri && await knownActor(fed.data, actorUri)) {
    const actor = await remoteActorValues(object);
    if (actor) {
      await rememberActor(fed.data, actor);
      changed(fed.data, true);
    }
  }
}

async function onDelete(fed: Fed, deletion: Delete): Promise<void> {
  const actorUri = deletion.actorId?.href;
  const objectUri = deletion.objectId?.href;
  if (!actorUri || !objectUri) return;
  // Delete(Person): the actor is gone, and what they left here with them.
  if (objectUri === actorUri) {
    changed(fed.data, await removeDeletedActor(fed.data, actorUri));
    return;
  }
  // Delete(Note), or of its Tombstone: the id is the comment's remote_uri; only its author's Delete counts.
  const writer = await knownActor(fed.data, actorUri);
  if (writer) changed(fed.data, await removeRemoteComment(fed.data, { writerId: writer.id, uri: objectUri }));
}

async function onReaction(fed: Fed, activity: Like | Announce, kind: ReactionKind): Promise<void> {
  const postId = localPostId(fed, activity.objectId);
  if (postId === undefined) return;
  const actor = await actorOf(fed, activity);
  if (!actor || actor.uri !== activity.actorId?.href) return;
  changed(fed.data, await addReaction(fed.data, { postId, actor, kind, activityUri: activity.id?.href ?? null }));
}

/**
 * A deleted actor's own Delete cannot be verified once their key is gone with them (Mastodon's
 * Delete of an account): when the key the signature names is that very actor's and their server
 * answers it is gone (410), the actor is taken as deleted. Not on a 404, which a server down for
 * maintenance may answer: anyone could then remove its users' comments. Anything else unverified
 * stays 401.
 */
async function onUnverified(fed: RequestContext<AppContext>, activity: Activity, reason: UnverifiedActivityReason): Promise<Response | undefined> {
  const actor = activity.actorId;
  if (!(activity instanceof Delete) || !actor || activity.objectId?.href !== actor.href) return undefined;
  if (reason.type !== 'keyFetchError' || !('status' in reason.result) || reason.result.status !== 410) return undefined;
  const owner = new URL(reason.keyId.href);
  owner.hash = '';
  if (owner.href !== actor.href) return undefined;
  changed(fed.data, await removeDeletedActor(fed.data, actor.href));
  return new Response(null, { status: 202 });
}
