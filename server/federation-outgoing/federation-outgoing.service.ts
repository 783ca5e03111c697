// What the rest of Beatnik tells the fediverse, queued in the act's own transaction (DESIGN.md,
// Sending): a `federation.send` job, which the leader's runner turns into the activity and hands
// to Fedify (federation/federation.send.ts) for delivery. Its own feature, apart from
// federation/, so that posts/, users/ and account/ may call it while federation/ calls their
// neighbours (comments/, users/) in turn: nothing here loads Fedify, and a server with
// federation off queues nothing and pays nothing.
import type { Config } from '../config.ts';
import type { DB } from '../schema.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { findRemoteFollowersCount, findSigningKeys, listFederatedPostIds, listFollowerInboxes } from './federation-outgoing.repo.ts';

export const SEND_JOB = 'federation.send';

/** The jobs queue every federation job is in: a runner of its own, apart from mail's (server/background.ts). */
export const FEDERATION_QUEUE = 'federation';

/** An article's life as its author's followers elsewhere hear it. */
export type ArticleEvent = 'create' | 'update' | 'delete';

/** Where a follower gets deliveries, as remote_actors keeps it. */
export interface FollowerInbox {
  uri: string;
  inbox: string;
  shared_inbox: string | null;
}

export type OutgoingActivity =
  /** Create (publish, unarchive), Update (edit), Delete (archive, deletion) of an article. */
  | { type: 'article'; event: ArticleEvent; postId: number; authorId: number; at: string }
  /** Update(Person): a profile edit. */
  | { type: 'profile'; userId: number; at: string }
  /** Accept of a remote actor's Follow of a local user. */
  | { type: 'accept'; userId: number; actorUri: string; followUri: string | null }
  /**
   * An account deleted with its articles: a Delete of each and of the actor. Its keys and
   * followers go with its rows, so the job carries what it needs to sign and address them (as
   * Fedify's own queued messages carry the keys).
   */
  | { type: 'account'; userId: number; postIds: number[]; at: string; keys: { rsa: string; ed25519: string }; followers: FollowerInbox[] };

/** Whether anybody elsewhere would hear of what the user does. */
async function heard(trx: DB, config: Config, userId: number): Promise<boolean> {
  return config.federation.enabled && await findRemoteFollowersCount(trx, userId) > 0;
}

/**
 * Queues an article's Create, Update or Delete for its author's remote followers, in `trx`, the
 * act's transaction; nothing when federation is off or nobody elsewhere follows the author.
 */
export async function queueArticleActivity(trx: DB, config: Config, post: { id: number; authorId: number }, event: ArticleEvent): Promise<void> {
  if (!await heard(trx, config, post.authorId)) return;
  await queueActivity(trx, { type: 'article', event, postId: post.id, authorId: post.authorId, at: new Date().toISOString() });
}

/** Queues Update(Person) after a profile edit, for the user's remote followers. */
export async function queueProfileUpdate(trx: DB, config: Config, userId: number): Promise<void> {
  if (!await heard(trx, config, userId)) return;
  await queueActivity(trx, { type: 'profile', userId, at: new Date().toISOString() });
}

/**
 * Queues the Deletes of an account being removed, in its removal's transaction and before its
 * rows go: its articles (those the fediverse has) and the actor itself.
 */
export async function queueAccountRemoval(trx: DB, config: Config, userId: number): Promise<void> {
  if (!await heard(trx, config, userId)) return;
  const keys = await findSigningKeys(trx, userId);
  // Nobody was ever answered without keys: nothing to sign with, nobody who heard of it.
  if (!keys) return;
  await queueActivity(trx, {
    type: 'account', userId, postIds: await listFederatedPostIds(trx, userId), at: new Date().toISOString(),
    keys: { rsa: keys.rsa_private, ed25519: keys.ed25519_private }, followers: await listFollowerInboxes(trx, userId),
  });
}

export async function queueActivity(trx: DB, activity: OutgoingActivity): Promise<void> {
  await enqueueJob(trx, { kind: SEND_JOB, queue: FEDERATION_QUEUE, payload: activity });
}
