// What the rest of Beatnik tells the fediverse, queued in the act's own transaction (DESIGN.md,
// Sending): a `federation.send` job, which the leader's runner turns into the activity and hands
// to Fedify (federation.send.ts) for delivery. Nothing here loads Fedify: a server with
// federation off queues nothing and pays nothing.
import type { Config } from '../config.ts';
import type { DB } from '../schema.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { countRemoteFollowers } from './federation.repo.ts';

export const SEND_JOB = 'federation.send';

/** An article's life as its author's followers elsewhere hear it. */
export type ArticleEvent = 'create' | 'update' | 'delete';

export type OutgoingActivity =
  /** Create (publish, unarchive), Update (edit), Delete (archive, deletion) of an article. */
  | { type: 'article'; event: ArticleEvent; postId: number; authorId: number; at: string }
  /** Update(Person): a profile edit. */
  | { type: 'profile'; userId: number; at: string }
  /** Accept of a remote actor's Follow of a local user. */
  | { type: 'accept'; userId: number; actorUri: string; followUri: string | null };

/**
 * Queues an article's Create, Update or Delete for its author's remote followers, in `trx`, the
 * act's transaction; nothing when federation is off or nobody elsewhere follows the author.
 */
export async function queueArticleActivity(trx: DB, config: Config, post: { id: number; authorId: number }, event: ArticleEvent): Promise<void> {
  if (!config.federation.enabled || await countRemoteFollowers(trx, post.authorId) === 0) return;
  await queueActivity(trx, { type: 'article', event, postId: post.id, authorId: post.authorId, at: new Date().toISOString() });
}

/** Queues Update(Person) after a profile edit, for the user's remote followers. */
export async function queueProfileUpdate(trx: DB, config: Config, userId: number): Promise<void> {
  if (!config.federation.enabled || await countRemoteFollowers(trx, userId) === 0) return;
  await queueActivity(trx, { type: 'profile', userId, at: new Date().toISOString() });
}

export async function queueActivity(trx: DB, activity: OutgoingActivity): Promise<void> {
  await enqueueJob(trx, { kind: SEND_JOB, payload: activity });
}
