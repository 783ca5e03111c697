// Beatnik on the fediverse (DESIGN.md, The fediverse (ActivityPub)), through Fedify: the
// addresses it answers (WebFinger, NodeInfo, actors, articles, collections, inboxes), its keys,
// and its queue and key–value store in Beatnik's own database. Built once at start when
// FEDERATION is on; nothing of it exists otherwise.
import './fedify-globals.ts';
import { createFederation, type CircuitBreakerOptions, type Federation, type OutboxErrorHandler, type OutboxPermanentFailureHandler, type RetryPolicy } from '@fedify/fedify';
import { Article, Create, Note } from '@fedify/vocab';
import type { AppContext } from '../context.ts';
import { activeBan } from '../users/users.bans.ts';
import { usernameKey } from '../users/users.names.ts';
import { BEATNIK_VERSION } from '../version.ts';
import { registrationMode, siteName } from '../site/site.service.ts';
import { DatabaseKvStore } from './kv-store.ts';
import { listenToInbox } from './federation.inbox.ts';
import { actorKeyPairs } from './federation.keys.ts';
import { DELIVERY_RETRIES, JobsMessageQueue } from './message-queue.ts';
import { actorIdentifier, articleOf, articleUri, duration, noteOf, personOf } from './federation.objects.ts';
import {
  countRemoteFollowers, countUsage, findActorUser, findFederatedComment, findFederatedPost, findUserIdByUsernameKey,
  listAuthorPosts, listRemoteFollowerInboxes,
} from './federation.repo.ts';

export type BeatnikFederation = Federation<AppContext>;

export const ACTOR_PATH = '/ap/users/{identifier}';
export const INBOX_PATH = '/ap/users/{identifier}/inbox';
export const SHARED_INBOX_PATH = '/ap/inbox';
export const ARTICLE_PATH = '/ap/posts/{id}';
/** A local comment, as a Note: what a reply to it names (DESIGN.md, Inbox: a comment of a local article). */
export const COMMENT_PATH = '/ap/comments/{id}';

const PAGE = 50;

export interface FederationParts {
  federation: BeatnikFederation;
  queue: JobsMessageQueue;
}

/** What the federation service hears of deliveries as they run (federation.service.ts). */
export interface DeliveryHooks {
  onOutboxError?: OutboxErrorHandler;
  /** A message queued one at a time: a delivery held (its server paused) or retried by Fedify. */
  onEnqueue?: (message: any) => void;
  onActivityDrop?: CircuitBreakerOptions['onActivityDrop'];
  onStateChange?: CircuitBreakerOptions['onStateChange'];
  /** A delivery Fedify will not retry: its inbox answered 404 or 410, or its server stayed paused too long. */
  onPermanentFailure?: OutboxPermanentFailureHandler<AppContext>;
}

/**
 * DESIGN.md: 'a server that keeps failing is paused'. Five failed deliveries to one host within
 * an hour pause it for an hour (its deliveries held in the jobs table, not tried), then one is
 * tried: delivered, the rest follow; failed, the pause starts again. A delivery held three days
 * after its first try is given up, as any other.
 */
const PAUSE = { failureThreshold: 5, failureWindow: { hours: 1 }, recoveryDelay: { hours: 1 }, heldActivityTtl: { milliseconds: DELIVERY_RETRIES.giveUpAfterMs } };

/**
 * DELIVERY_RETRIES' schedule for the few retries Fedify queues itself (a server answering 429 or
 * 503 with Retry-After, a paused server's deliveries held): none once three days have passed
 * since the first try. Every other failure is thrown back to the jobs runner (nativeRetrial).
 */
const fedifyDeliveryRetries: RetryPolicy = ({ elapsedTime, attempts }) => {
  if (elapsedTime.total('millisecond') >= DELIVERY_RETRIES.giveUpAfterMs) return null;
  return duration(Math.min(DELIVERY_RETRIES.firstDelayMs * 2 ** attempts, DELIVERY_RETRIES.maxDelayMs));
};

export function buildFederation(ctx: AppContext, hooks: DeliveryHooks = {}): FederationParts {
  const queue = new JobsMessageQueue(ctx.db, hooks.onEnqueue);
  const federation = createFederation<AppContext>({
    kv: new DatabaseKvStore(ctx.db),
    // Outgoing activities only: the inbox handles what arrives while its sender waits, so that
    // the sender learns at once whether it was taken (DESIGN.md: 401, 403, 202).
    queue: { outbox: queue, fanout: queue },
    // The leader's jobs runner hands the queue its messages (server/background.ts).
    manuallyStartQueue: true,
    origin: ctx.config.publicUrl,
    allowPrivateAddress: ctx.config.federation.allowPrivateAddress,
    userAgent: { software: `Beatnik/${BEATNIK_VERSION}`, url: new URL(ctx.config.publicUrl) },
    onOutboxError: hooks.onOutboxError,
    outboxRetryPolicy: fedifyDeliveryRetries,
    circuitBreaker: { ...PAUSE, onActivityDrop: hooks.onActivityDrop, onStateChange: hooks.onStateChange },
  });
  if (hooks.onPermanentFailure) federation.setOutboxPermanentFailureHandler(hooks.onPermanentFailure);

  federation.setActorDispatcher(ACTOR_PATH, async (fed, identifier) => {
    const user = await localActor(ctx, identifier);
    return user ? await personOf(fed, user) : null;
  })
    .setKeyPairsDispatcher(async (_fed, identifier) => {
      const user = await localActor(ctx, identifier);
      return user ? await actorKeyPairs(ctx.db, user.id) : [];
    })
    // Handles are usernames, case-insensitive; ids are user ids, which survive a rename.
    .mapHandle(async (_fed, username) => {
      const id = await findUserIdByUsernameKey(ctx.db, usernameKey(username));
      return id === undefined ? null : actorIdentifier(id);
    })
    // WebFinger's resource may also be the profile page (PUBLIC_URL/beatnik/{username}).
    .mapAlias(async (_fed, resource) => {
      const match = resource.origin === new URL(ctx.config.publicUrl).origin ? /^\/beatnik\/([^/]+)$/.exec(resource.pathname) : null;
      if (!match) return null;
      const id = await findUserIdByUsernameKey(ctx.db, usernameKey(decodeURIComponent(match[1]!)));
      return id === undefined ? null : { identifier: actorIdentifier(id) };
    });

  federation.setObjectDispatcher(Article, ARTICLE_PATH, async (fed, values) => {
    const id = Number(values.id);
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const post = await findFederatedPost(ctx.db, id);
    if (!post || !await localActor(ctx, actorIdentifier(post.author_id))) return null;
    return articleOf(fed, post);
  });

  federation.setObjectDispatcher(Note, COMMENT_PATH, async (fed, values) => {
    const id = Number(values.id);
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const comment = await findFederatedComment(ctx.db, id);
    if (!comment || !await localActor(ctx, actorIdentifier(comment.author_id))) return null;
    return noteOf(fed, comment);
  });

  federation.setFollowersDispatcher('/ap/users/{identifier}/followers', async (_fed, identifier, cursor) => {
    const user = await localActor(ctx, identifier);
    if (!user) return null;
    const rows = await listRemoteFollowerInboxes(ctx.db, user.id, { after: followersCursor(cursor ?? ''), limit: PAGE });
    return {
      items: rows.map((row) => ({
        id: new URL(row.uri),
        inboxId: new URL(row.inbox),
        endpoints: row.shared_inbox ? { sharedInbox: new URL(row.shared_inbox) } : null,
      })),
      nextCursor: rows.length === PAGE ? `${rows[rows.length - 1]!.created_at} ${rows[rows.length - 1]!.actor_id}` : null,
    };
  })
    .setFirstCursor(() => '')
    .setCounter(async (_fed, identifier) => {
      const user = await localActor(ctx, identifier);
      return user ? await countRemoteFollowers(ctx.db, user.id) : null;
    });

  // Beatnik users follow each other locally, not across servers: an empty list, as it is.
  federation.setFollowingDispatcher('/ap/users/{identifier}/following', async (_fed, identifier) => {
    return await localActor(ctx, identifier) ? { items: [] } : null;
  }).setCounter(async (_fed, identifier) => (await localActor(ctx, identifier) ? 0 : null));

  federation.setOutboxDispatcher('/ap/users/{identifier}/outbox', async (fed, identifier, cursor) => {
    const user = await localActor(ctx, identifier);
    if (!user) return null;
    const posts = await listAuthorPosts(ctx.db, user.id, { before: cursor || undefined, limit: PAGE });
    return {
      items: posts.map((post) => new Create({
        id: new URL(`${articleUri(fed, post.id).href}#create`),
        actor: fed.getActorUri(identifier),
        object: articleOf(fed, post),
        tos: [new URL('https://www.w3.org/ns/activitystreams#Public')],
        ccs: [fed.getFollowersUri(identifier)],
      })),
      nextCursor: posts.length === PAGE ? posts[posts.length - 1]!.created_at : null,
    };
  })
    .setFirstCursor(() => '')
    .setCounter(async (_fed, identifier) => {
      const user = await localActor(ctx, identifier);
      return user ? user.posts_count : null;
    });

  listenToInbox(federation.setInboxListeners(INBOX_PATH, SHARED_INBOX_PATH));

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const now = Date.now();
    const usage = await countUsage(ctx.db, new Date(now - 30 * 86_400_000).toISOString(), new Date(now - 182 * 86_400_000).toISOString());
    return {
      software: { name: 'beatnik', version: BEATNIK_VERSION, homepage: new URL(ctx.config.publicUrl) },
      protocols: ['activitypub'],
      usage: {
        users: { total: usage.users, activeMonth: usage.activeMonth, activeHalfyear: usage.activeHalfyear },
        localPosts: usage.posts,
        localComments: 0,
      },
      openRegistrations: await registrationMode(ctx) === 'open',
      metadata: { nodeName: await siteName(ctx) },
    };
  });

  return { federation, queue };
}

/** The local account behind an actor identifier: never a pending or banned one. */
async function localActor(ctx: AppContext, identifier: string) {
  const id = Number(identifier);
  if (!/^\d+$/.test(identifier) || !Number.isSafeInteger(id)) return undefined;
  const user = await findActorUser(ctx.db, id);
  if (!user || activeBan(user)) return undefined;
  return user;
}

/** The followers page's cursor, "created_at actor_id" of the last follower of the page before; undefined for the first. */
function followersCursor(cursor: string): { createdAt: string; actorId: number } | undefined {
  const [createdAt, actorId] = cursor.split(' ');
  const id = Number(actorId);
  return createdAt && Number.isSafeInteger(id) ? { createdAt, actorId: id } : undefined;
}
