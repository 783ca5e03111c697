// What other features and the CLI ask of the jobs table: work queued beside the act that causes
// it, and the list and retry of what failed (DESIGN.md, One way to do background work).
import { nowIso } from '../db.ts';
import type { DB, JobState } from '../schema.ts';
import { countJobsByKindAndState, countJobsOfKind, insertJob } from './jobs.repo.ts';

export { listJobs, retryFailedJobs } from './jobs.repo.ts';

/** The queue of mail, digests and backups: every job's but the fediverse's. */
export const MAIN_QUEUE = 'main';

/** Told of every job queued in this process, with its queue: that queue's runner, when it runs here, looks at once. */
const queuedListeners = new Set<(queue: string) => void>();

export function onJobQueued(listener: (queue: string) => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

export interface NewJob {
  kind: string;
  payload: unknown;
  /** Not before then (a batch of mail waiting out its quarter hour); now when absent. */
  runAt?: Date;
  /** Whose runner takes it (migrations/0027_job_queues.ts); MAIN_QUEUE when absent. */
  queue?: string;
}

/** Whether a job of this kind is in the table, in any state (a schedule's next run, say). */
export async function hasJobOfKind(db: DB, kind: string): Promise<boolean> {
  return await countJobsOfKind(db, kind) > 0;
}

/** Adds a job; `db` is normally the transaction of the act that causes it. */
export async function enqueueJob(db: DB, job: NewJob): Promise<void> {
  const queue = job.queue ?? MAIN_QUEUE;
  await insertJob(db, {
    kind: job.kind, queue, payload: JSON.stringify(job.payload),
    run_at: job.runAt?.toISOString() ?? nowIso(), created_at: nowIso(),
  });
  for (const listener of queuedListeners) listener(queue);
}

/** A count of the jobs table: how many jobs of one kind are in one state. */
export interface JobCount {
  kind: string;
  state: JobState;
  n: number;
}

/** The jobs waiting (due or not yet) and given up on, by kind: the queues' depths (/metrics). */
export function countQueuedJobs(db: DB): Promise<JobCount[]> {
  return countJobsByKindAndState(db, ['pending', 'failed']);
}
