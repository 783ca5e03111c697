// The `federation.send` job (federation-outgoing/): the activity built from what the database
// holds when the job runs, handed to Fedify, which signs it and queues one delivery per inbox
// (shared inboxes once per server) as `federation.fedify` jobs.
import { importJwk, type SenderKeyPair } from '@fedify/fedify';
import { Accept, Create, Delete, Follow, PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import type { AppContext } from '../context.ts';
import { activeBan } from '../users/users.bans.ts';
import type { BeatnikFederation } from './federation.ts';
import { findActorUser, findFederatedPost, findRemoteActorByUri } from './federation.repo.ts';
import { actorIdentifier, articleOf, articleUri, personOf, tombstoneOf } from './federation.objects.ts';
import type { FollowerInbox, OutgoingActivity } from '../federation-outgoing/federation-outgoing.service.ts';

/** A follower as Fedify addresses it: its inbox, and its server's shared one. */
function recipientOf(follower: FollowerInbox) {
  return { id: new URL(follower.uri), inboxId: new URL(follower.inbox), endpoints: follower.shared_inbox ? { sharedInbox: new URL(follower.shared_inbox) } : null };
}

/** The local account as an actor now: not banned, not gone. */
async function speaking(ctx: AppContext, userId: number) {
  const user = await findActorUser(ctx.db, userId);
  return user && !activeBan(user) ? user : undefined;
}

export function sendQueuedActivity(ctx: AppContext, federation: BeatnikFederation) {
  return async (activity: OutgoingActivity): Promise<void> => {
    const fed = federation.createContext(new URL(ctx.config.publicUrl), ctx);
    switch (activity.type) {
      case 'article': {
        // A banned or gone author is no actor (404): nothing signed by them would be believed.
        if (!await speaking(ctx, activity.authorId)) return;
        const sender = { identifier: actorIdentifier(activity.authorId) };
        const id = new URL(`${articleUri(fed, activity.postId).href}#${activity.event}-${Date.parse(activity.at)}`);
        const post = activity.event === 'delete' ? undefined : await findFederatedPost(ctx.db, activity.postId);
        // Archived or deleted by the time the job runs: its Delete follows, or has been queued.
        if (activity.event !== 'delete' && !post) return;
        const common = { id, actor: fed.getActorUri(sender.identifier), to: new URL('https://www.w3.org/ns/activitystreams#Public'), cc: fed.getFollowersUri(sender.identifier) };
        const message = activity.event === 'create' ? new Create({ ...common, object: articleOf(fed, post!) })
          : activity.event === 'update' ? new Update({ ...common, object: articleOf(fed, post!) })
          : new Delete({ ...common, object: tombstoneOf(fed, activity.postId, activity.at) });
        await fed.sendActivity(sender, 'followers', message, { preferSharedInbox: true });
        return;
      }
      case 'profile': {
        const user = await speaking(ctx, activity.userId);
        if (!user) return;
        const identifier = actorIdentifier(user.id);
        const person = await personOf(fed, user);
        const update = new Update({
          id: new URL(`${fed.getActorUri(identifier).href}#update-${Date.parse(activity.at)}`),
          actor: fed.getActorUri(identifier),
          to: new URL('https://www.w3.org/ns/activitystreams#Public'),
          cc: fed.getFollowersUri(identifier),
          object: person,
        });
        await fed.sendActivity({ identifier }, 'followers', update, { preferSharedInbox: true });
        return;
      }
      case 'accept': {
        // Banned since the Follow: no keys to sign with, and no actor to be believed.
        if (!await speaking(ctx, activity.userId)) return;
        const identifier = actorIdentifier(activity.userId);
        const follower = await findRemoteActorByUri(ctx.db, activity.actorUri);
        if (!follower) return;
        const recipient = recipientOf({ uri: follower.uri, inbox: follower.inbox, shared_inbox: follower.shared_inbox });
        const accept = new Accept({
          id: new URL(`${fed.getActorUri(identifier).href}#accept-${encodeURIComponent(activity.followUri ?? activity.actorUri)}`),
          actor: fed.getActorUri(identifier),
          object: new Follow({
            id: activity.followUri ? new URL(activity.followUri) : null,
            actor: recipient.id,
            object: fed.getActorUri(identifier),
          }),
        });
        await fed.sendActivity({ identifier }, recipient, accept);
        return;
      }
      case 'account': {
        // The account is gone: its keys and followers came with the job (federation-outgoing).
        const actor = fed.getActorUri(actorIdentifier(activity.userId));
        const keys: SenderKeyPair[] = [
          { keyId: new URL('#main-key', actor), privateKey: await importJwk(JSON.parse(activity.keys.rsa), 'private') },
          { keyId: new URL('#key-2', actor), privateKey: await importJwk(JSON.parse(activity.keys.ed25519), 'private') },
        ];
        const recipients = activity.followers.map(recipientOf);
        const at = Date.parse(activity.at);
        for (const postId of activity.postIds) {
          await fed.sendActivity(keys, recipients, new Delete({
            id: new URL(`${articleUri(fed, postId).href}#delete-${at}`), actor, to: PUBLIC_COLLECTION,
            object: tombstoneOf(fed, postId, activity.at),
          }), { preferSharedInbox: true });
        }
        await fed.sendActivity(keys, recipients, new Delete({ id: new URL(`${actor.href}#delete-${at}`), actor, to: PUBLIC_COLLECTION, object: actor }), { preferSharedInbox: true });
        return;
      }
    }
  };
}
