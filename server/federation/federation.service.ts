// The federation as the server runs it (server.ts): Fedify's routes for the app, the jobs that
// send and the one that copies remote authors' pictures, and the queue's worker, which only the instance that leads the background jobs starts.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppContext, FederationService } from '../context.ts';
import type { JobHandler } from '../jobs/jobs.runner.ts';
import { buildFederation, type BeatnikFederation } from './federation.ts';
import { federationMiddleware, type InboxGate } from './federation.middleware.ts';
import { FEDIFY_JOB } from './message-queue.ts';
import { SEND_JOB } from './federation.outgoing.ts';
import { sendQueuedActivity } from './federation.send.ts';
import { insertDelivery } from './federation.repo.ts';
import { deliveryBlocked } from './federation.blocks.ts';
import { AVATAR_JOB } from './federation.avatars.ts';
import { copyRemoteAvatar } from './federation.avatar-copy.ts';

/** A delivery dropped because its server is blocked, as the Fediverse tab lists it. */
export const BLOCKED_DELIVERY = 'blocked';

export interface RunningFederation extends FederationService {
  readonly federation: BeatnikFederation;
}

interface DeliveryOutcome {
  error?: string;
}

export function createFederationService(ctx: AppContext, gate?: InboxGate): RunningFederation {
  // A delivery's outcome, which Fedify tells through onOutboxError while the job runs.
  const outcome = new AsyncLocalStorage<DeliveryOutcome>();
  const { federation, queue } = buildFederation(ctx, {
    onOutboxError: (error) => {
      const current = outcome.getStore();
      if (current) current.error = error.message;
    },
  });
  const send = sendQueuedActivity(ctx, federation);

  /** One queued Fedify message; a delivery to an inbox is recorded for the Fediverse tab. */
  const runMessage: JobHandler = async (message) => {
    if (message?.type !== 'outbox') return await queue.run(message);
    const result: DeliveryOutcome = {};
    let thrown: unknown;
    try {
      // Nothing more goes to a server blocked since (DESIGN.md, Moderation): dropped, not retried.
      if (await deliveryBlocked(ctx.db, String(message.inbox))) result.error = BLOCKED_DELIVERY;
      else await outcome.run(result, () => queue.run(message));
    } catch (err) {
      thrown = err;
      result.error ??= err instanceof Error ? err.message : String(err);
    }
    const inbox = new URL(String(message.inbox));
    await insertDelivery(ctx.db, {
      at: new Date().toISOString(), inbox: inbox.href, domain: inbox.hostname.toLowerCase(),
      activity_type: String(message.activityType ?? 'Activity').replace(/^https:\/\/www\.w3\.org\/ns\/activitystreams#/, ''),
      activity_id: typeof message.activityId === 'string' ? message.activityId : null,
      ok: result.error === undefined ? 1 : 0, error: result.error ?? null,
    }).catch((err: Error) => ctx.log.warn({ err: err.message }, 'a delivery could not be recorded'));
    if (thrown) throw thrown;
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
