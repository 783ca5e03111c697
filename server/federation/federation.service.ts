// The federation as the server runs it (server.ts): Fedify's routes for the app, the jobs that
// send and the one that copies remote authors' pictures, and the queue's worker, which only the
// instance that leads the background jobs starts.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppContext, FederationService } from '../context.ts';
import type { JobRow } from '../schema.ts';
import { PermanentJobError, type JobHandler } from '../jobs/jobs.runner.ts';
import { buildFederation, type BeatnikFederation } from './federation.ts';
import { federationMiddleware, type InboxGate } from './federation.middleware.ts';
import { DELIVERY_RETRIES, FEDIFY_JOB } from './message-queue.ts';
import { SEND_JOB } from '../federation-outgoing/federation-outgoing.service.ts';
import { sendQueuedActivity } from './federation.send.ts';
import { insertDelivery } from './federation.repo.ts';
import { guardedRequests, privateAddressRefusal, type RequestScope } from './federation.addresses.ts';
import { deliveryBlocked } from './federation.blocks.ts';
import { dropGoneFollowers } from './federation.inbox.service.ts';
import { AVATAR_JOB } from './federation.avatars.ts';
import { copyRemoteAvatar } from './federation.avatar-copy.ts';

/** A delivery dropped because its server is blocked, as the Fediverse tab lists it. */
export const BLOCKED_DELIVERY = 'blocked';

export interface RunningFederation extends FederationService {
  readonly federation: BeatnikFederation;
}

/**
 * Why nothing may be sent to an inbox, recorded as the delivery's failure and never retried: the
 * job stays 'failed' for an operator to see, or with `drop` goes too (nothing is ever to go there).
 */
export interface DeliveryRefusal {
  error: string;
  drop?: boolean;
}

/** A refusal, or undefined to let the delivery go. */
export type DeliveryCheck = (inbox: URL) => Promise<DeliveryRefusal | undefined>;

/** What Fedify told while it ran one delivery (its hooks, federation.ts). */
interface DeliveryOutcome {
  /** The error it failed with. */
  error?: string;
  /** Queued again by Fedify itself: held while its server is paused, or retried after Retry-After. */
  requeued?: boolean;
  /** Held so long while its server was paused that it was given up. */
  dropped?: boolean;
}

/**
 * A delivery as it is to be tried now, or undefined when its three days are over. A copy Fedify
 * held (its server paused) or queued again carries its first try's time, and its days count from
 * it. None of them is queued after those days, so a job newer than that was put back by an
 * operator (`federation-queue --retry`): tried as if new, unheld.
 */
function withinItsDays(message: any, job: JobRow): any {
  const ends = Date.parse(String(message.started)) + DELIVERY_RETRIES.giveUpAfterMs;
  if (Number.isNaN(ends)) return message;
  if (Date.parse(job.created_at) >= ends) {
    const { circuitHeld: _held, circuitHeldSince: _since, ...fresh } = message;
    return { ...fresh, started: new Date().toISOString() };
  }
  return Date.now() < ends ? message : undefined;
}

export function createFederationService(ctx: AppContext, gate?: InboxGate): RunningFederation {
  const outcome = new AsyncLocalStorage<DeliveryOutcome>();
  const { federation, queue } = buildFederation(ctx, {
    onOutboxError: (error) => {
      const current = outcome.getStore();
      if (current) current.error = error.message;
    },
    onEnqueue: () => {
      const current = outcome.getStore();
      if (current) current.requeued = true;
    },
    onActivityDrop: () => {
      const current = outcome.getStore();
      if (current) current.dropped = true;
    },
    // Gone for good (410): those followers are dropped, so nothing more is queued for them. A 404
    // is given up too, but may be a server's passing mistake: the follows stay.
    onPermanentFailure: async (_fed, failure) => {
      if (failure.reason !== 'http' || failure.statusCode !== 410) return;
      const dropped = await dropGoneFollowers(ctx, failure.actorIds.map((id) => id.href));
      if (dropped === 0) return;
      ctx.readCache?.invalidate(); // the follower counts shown
      ctx.log.info({ inbox: failure.inbox.href, dropped }, 'a fediverse inbox is gone (410): its followers here are removed');
    },
    onStateChange: (host, _before, state) => {
      if (state === 'open') ctx.log.warn({ host }, 'a fediverse server keeps failing: deliveries to it are paused');
      else if (state === 'closed') ctx.log.info({ host }, 'a paused fediverse server answers again: deliveries to it resume');
    },
  });
  const send = sendQueuedActivity(ctx, federation);

  // Asked in turn before each delivery, before Fedify signs or sends anything.
  const allowPrivate = ctx.config.federation.allowPrivateAddress;
  const deliveryChecks: DeliveryCheck[] = [
    // Nothing more goes to a server blocked since (DESIGN.md, Moderation): dropped, not retried.
    async (inbox) => (await deliveryBlocked(ctx.db, inbox.href) ? { error: BLOCKED_DELIVERY, drop: true } : undefined),
  ];
  if (!allowPrivate) {
    deliveryChecks.push(async (inbox) => {
      const refusal = await privateAddressRefusal(inbox);
      return refusal ? { error: `Refused: ${refusal}` } : undefined;
    });
  }

  /** One delivery as the Fediverse tab lists it. */
  const record = (message: any, inbox: URL, error: string | null) => insertDelivery(ctx.db, {
    at: new Date().toISOString(), inbox: inbox.href, domain: inbox.hostname.toLowerCase(),
    activity_type: String(message.activityType ?? 'Activity').replace(/^https:\/\/www\.w3\.org\/ns\/activitystreams#/, ''),
    activity_id: typeof message.activityId === 'string' ? message.activityId : null,
    ok: error === null ? 1 : 0, error,
  }).catch((err: Error) => ctx.log.warn({ err: err.message }, 'a delivery could not be recorded'));

  /** Refused or given up: recorded, and the job left 'failed' (never retried; the CLI can). */
  const giveUp = async (message: any, inbox: URL, reason: string): Promise<never> => {
    await record(message, inbox, reason);
    throw new PermanentJobError(reason);
  };

  /**
   * One queued Fedify message. A delivery to an inbox is checked, run, and recorded for the
   * Fediverse tab; thrown back to the jobs runner when it failed, which retries it on
   * DELIVERY_RETRIES' schedule.
   */
  const runMessage: JobHandler = async (queued, job) => {
    if (queued?.type !== 'outbox') return await queue.run(queued);
    const inbox = new URL(String(queued.inbox));
    const message = withinItsDays(queued, job);
    if (!message) return giveUp(queued, inbox, 'Given up: not delivered within three days');
    for (const check of deliveryChecks) {
      const refusal = await check(inbox);
      if (refusal?.drop) return void await record(message, inbox, refusal.error);
      if (refusal) return giveUp(message, inbox, refusal.error);
    }
    const result: DeliveryOutcome = {};
    const scope: RequestScope = { publicOnly: !allowPrivate, deadline: AbortSignal.timeout(ctx.config.federation.deliveryTimeoutMs) };
    let thrown: unknown;
    try {
      await guardedRequests(scope, () => outcome.run(result, () => queue.run(message)));
    } catch (err) {
      thrown = err;
      result.error ??= err instanceof Error ? err.message : String(err);
    }
    // Redirected to a private address on the way.
    if (scope.refusal) return giveUp(message, inbox, `Refused: ${scope.refusal}`);
    if (thrown) {
      await record(message, inbox, result.error!);
      throw thrown;
    }
    if (result.dropped) return giveUp(message, inbox, `Given up: its server was paused too long${result.error ? ` (last: ${result.error})` : ''}`);
    if (result.requeued) {
      // Held, now or after this failure, while its server is paused: its copy waits in the queue.
      if (result.error !== undefined) await record(message, inbox, result.error);
      return;
    }
    // Failed and not retried by Fedify: an inbox that is gone (404, 410).
    if (result.error !== undefined) return giveUp(message, inbox, result.error);
    await record(message, inbox, null);
  };

  return {
    federation,
    routes: () => federationMiddleware(ctx, federation, gate),
    jobHandlers: { [FEDIFY_JOB]: runMessage, [SEND_JOB]: send, [AVATAR_JOB]: copyRemoteAvatar(ctx) },
    startQueue() {
      const abort = new AbortController();
      federation.startQueue(ctx, { signal: abort.signal }).catch((err: Error) => ctx.log.error({ err: err.message }, 'the federation queue stopped'));
      return () => abort.abort();
    },
  };
}
