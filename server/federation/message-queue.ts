// Fedify's MessageQueue as a view of the one jobs table (DESIGN.md, One way to do background
// work): each message Fedify queues (a fan-out to followers, a delivery to one inbox) is a
// `federation.fedify` job, run by the leader's runner, which survives restarts and retries a
// failed delivery on the federation's schedule (nativeRetrial: Fedify leaves retries to us).
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { DB } from '../schema.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { FEDERATION_QUEUE } from '../federation-outgoing/federation-outgoing.service.ts';
import type { RetryPolicy } from '../jobs/jobs.runner.ts';

export const FEDIFY_JOB = 'federation.fedify';

/** DESIGN.md: retried from 1 min, doubling to 12 h, given up after 3 days. */
export const DELIVERY_RETRIES: RetryPolicy = { firstDelayMs: 60_000, maxDelayMs: 12 * 3_600_000, giveUpAfterMs: 3 * 86_400_000 };

type Handler = (message: any) => Promise<void> | void;

export class JobsMessageQueue implements MessageQueue {
  readonly nativeRetrial = true;
  readonly #db: DB;
  readonly #onEnqueue: ((message: any) => void) | undefined;
  #handler: Handler | undefined;

  /** `onEnqueue` is told of each message queued one at a time (a delivery held or retried by Fedify). */
  constructor(db: DB, onEnqueue?: (message: any) => void) {
    this.#db = db;
    this.#onEnqueue = onEnqueue;
  }

  async enqueue(message: any, options?: MessageQueueEnqueueOptions): Promise<void> {
    await enqueueJob(this.#db, { kind: FEDIFY_JOB, queue: FEDERATION_QUEUE, payload: message, runAt: runAt(options) });
    this.#onEnqueue?.(message);
  }

  enqueueMany = async (messages: readonly any[], options?: MessageQueueEnqueueOptions): Promise<void> => {
    const at = runAt(options);
    await this.#db.transaction().execute(async (trx) => {
      for (const message of messages) await enqueueJob(trx, { kind: FEDIFY_JOB, queue: FEDERATION_QUEUE, payload: message, runAt: at });
    });
  };

  /**
   * Fedify's worker, started on the instance that leads (federation.startQueue): it is handed the
   * messages the jobs runner takes. Resolves when the signal aborts.
   */
  listen(handler: Handler, options?: MessageQueueListenOptions): Promise<void> {
    this.#handler = handler;
    return new Promise((resolve) => {
      const signal = options?.signal;
      if (!signal) return;
      const stop = () => {
        if (this.#handler === handler) this.#handler = undefined;
        resolve();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }

  /** Runs one queued message (the `federation.fedify` job's handler); throwing asks for a retry. */
  async run(message: unknown): Promise<void> {
    if (!this.#handler) throw new Error('the federation queue is not listening on this instance');
    await this.#handler(message);
  }
}

function runAt(options: MessageQueueEnqueueOptions | undefined): Date | undefined {
  const delayMs = options?.delay?.total('millisecond') ?? 0;
  return delayMs > 0 ? new Date(Date.now() + delayMs) : undefined;
}
