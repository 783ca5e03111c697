// Runs the jobs table's due work (DESIGN.md, One way to do background work): on the one instance
// that leads the periodic jobs (server.ts), never inside a request. A job that throws is tried
// again later, one minute after its first failure, doubling up to six hours between tries, and
// given up after three days (or at once, for a PermanentJobError): then it stays 'failed' for an
// operator (`npm run admin -- mail-queue`). A runner that dies mid-job leaves it 'running': the
// next runner to start (there is one a queue at a time: the leader's) takes it back at once, and any
// runner once the job's lock has run out. A job may run twice, never zero times.
import type { AppContext } from '../context.ts';
import type { JobRow } from '../schema.ts';
import { claimDueJobs, deleteJob, giveUpJob, releaseAbandoned, releaseClaims, renewClaim, rescheduleJob, type Claim } from './jobs.repo.ts';
import { MAIN_QUEUE, onJobQueued } from './jobs.service.ts';

/** What a kind of job does with its payload; throwing asks for another try. */
export type JobHandler = (payload: any, job: JobRow) => Promise<void>;

/** A failure no retry can mend (an address the mail server refuses for good). */
export class PermanentJobError extends Error {}

export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  giveUpAfterMs: number;
}

/** How long after a job is queued in this process the runner looks. */
const WAKE_DELAY_MS = 20;
/**
 * After a wake-up that found nothing (the job's transaction had not committed yet), looks again
 * this much later, then later again, before leaving it to the poll.
 */
const FOLLOW_UP_DELAYS_MS = [250, 1_000, 4_000];

export const RETRIES: RetryPolicy = { firstDelayMs: 60_000, maxDelayMs: 6 * 3_600_000, giveUpAfterMs: 3 * 86_400_000 };

export interface JobRunnerOptions {
  /** The queue it runs (migrations/0027_job_queues.ts): MAIN_QUEUE when absent. */
  queue?: string;
  /**
   * Jobs of a batch run at once (default 1: one after the other). Deliveries to other servers
   * mostly wait on them: a few at a time, so that one slow server does not hold the others back.
   */
  concurrency?: number;
  /**
   * How often the table is asked for due jobs when nothing says there are any. A job queued in
   * this process wakes the runner at once (jobs.service.ts); one queued by another instance or
   * the CLI waits for the poll. Seldom, so that an idle server stays idle (and small).
   */
  pollMs?: number;
  /** Whether a job queued in this process wakes the runner (default true; false: it only polls). */
  wakeOnQueue?: boolean;
  /** Jobs taken at a time. */
  batch?: number;
  retry?: RetryPolicy;
  /** Kinds retried on a schedule of their own (federation deliveries: up to 12 h between tries). */
  retryByKind?: Readonly<Record<string, RetryPolicy>>;
  /** How long a running job is its runner's before another may take it. */
  lockMs?: number;
}

export interface JobRunner {
  /** Waits for the job under way, then stops. */
  stop(): Promise<void>;
}

/**
 * When a job that failed on its `attempts`-th try is tried again; undefined: give up. A try due
 * after the deadline is made at the deadline instead, so that the last one falls at three days.
 */
export function nextTry(job: Pick<JobRow, 'attempts' | 'created_at'>, now: Date, policy: RetryPolicy): Date | undefined {
  const delay = Math.min(policy.firstDelayMs * 2 ** Math.max(0, job.attempts - 1), policy.maxDelayMs);
  const deadline = Date.parse(job.created_at) + policy.giveUpAfterMs;
  if (now.getTime() >= deadline) return undefined;
  return new Date(Math.min(now.getTime() + delay, deadline));
}

export function startJobRunner(
  ctx: Pick<AppContext, 'db' | 'log'>, handlers: Readonly<Record<string, JobHandler>>, options: JobRunnerOptions = {},
): JobRunner {
  const {
    queue = MAIN_QUEUE, concurrency = 1, pollMs = 10_000, wakeOnQueue = true, batch = 20, retry = RETRIES, retryByKind = {}, lockMs = 5 * 60_000,
  } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** The timer set is a wake-up (soon), not the poll: more jobs queued leave it as it is. */
  let waking = false;
  /** A job was queued here while a tick was under way. */
  let queuedMeanwhile = false;
  /** Looks left after a wake-up that found nothing (FOLLOW_UP_DELAYS_MS). */
  let followUps = 0;
  let running: Promise<void> = Promise.resolve();

  /** Runs one claimed job and records how it went; never throws (the batch goes on). */
  const runOne = async (job: JobRow, claim: Claim) => {
    try {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`no handler for jobs of kind "${job.kind}"`);
      await handler(JSON.parse(job.payload), job);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const again = err instanceof PermanentJobError ? undefined : nextTry(job, new Date(), retryByKind[job.kind] ?? retry);
      try {
        if (again) {
          ctx.log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, retryAt: again.toISOString(), error }, 'background job failed; will retry');
          await rescheduleJob(ctx.db, claim, again, error);
        } else {
          ctx.log.error({ job: job.id, kind: job.kind, attempts: job.attempts, error }, 'background job failed; given up');
          await giveUpJob(ctx.db, claim, error);
        }
      } catch (recordErr) {
        ctx.log.error({ err: recordErr, job: job.id }, 'a background job\'s failure could not be recorded; it is tried again when its claim runs out');
      }
      return;
    }
    try {
      await deleteJob(ctx.db, claim);
    } catch (err) {
      ctx.log.error({ err, job: job.id }, 'a finished background job could not be removed; it may run again');
    }
  };

  /** Runs a claimed batch, `concurrency` jobs at a time; what is left when the runner stops is let go. */
  const runBatch = async (jobs: JobRow[]) => {
    let next = 0;
    const unrun: Claim[] = [];
    const lane = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const claim = { id: job.id, lockedUntil: job.locked_until! };
        if (stopped) {
          unrun.push(claim);
          continue;
        }
        // Each job's own lock, from when it starts: the ones before it may have taken their time.
        const held = await renewClaim(ctx.db, claim, new Date(Date.now() + lockMs));
        if (held) await runOne(job, held);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
    if (unrun.length > 0) await releaseClaims(ctx.db, unrun);
  };

  const tick = async () => {
    timer = undefined;
    waking = false;
    queuedMeanwhile = false;
    let claimed = 0;
    try {
      const now = new Date();
      const jobs = await claimDueJobs(ctx.db, queue, now, new Date(now.getTime() + lockMs), batch);
      claimed = jobs.length;
      await runBatch(jobs);
    } catch (err) {
      ctx.log.error({ err }, 'background jobs could not be read');
    }
    if (stopped) return;
    // A full batch: there may be more due at once. A wake-up that found nothing looks again soon.
    if (claimed > 0) followUps = 0;
    const followUp = claimed === 0 && followUps > 0 ? FOLLOW_UP_DELAYS_MS[FOLLOW_UP_DELAYS_MS.length - followUps--] : undefined;
    const delay = claimed === batch ? 0 : queuedMeanwhile ? WAKE_DELAY_MS : followUp ?? pollMs;
    waking = delay < pollMs;
    timer = setTimeout(() => { running = tick(); }, delay);
  };

  // A job queued here is looked for shortly after: by then its transaction has mostly committed;
  // if not, the looks that follow find it. A wake-up already set stays: a stream of jobs cannot
  // keep putting it off.
  const stopListening = onJobQueued((queuedTo) => {
    if (stopped || !wakeOnQueue || queuedTo !== queue) return;
    followUps = FOLLOW_UP_DELAYS_MS.length;
    if (waking) return;
    if (!timer) {
      queuedMeanwhile = true; // a tick under way (a job queuing another): it looks again when done
      return;
    }
    clearTimeout(timer);
    waking = true;
    timer = setTimeout(() => { running = tick(); }, WAKE_DELAY_MS);
  });

  // Started on the one instance that leads: what is still marked running was a runner's that is gone.
  running = releaseAbandoned(ctx.db, queue)
    .catch((err: unknown) => ctx.log.error({ err }, 'background jobs could not be released'))
    .then(tick);
  return {
    async stop() {
      stopped = true;
      stopListening();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
