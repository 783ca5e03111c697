// The jobs table's SQL (migrations/0016_jobs.ts): rows written beside the act that causes the work
// (jobs.service.ts), claimed by the leader's runner (jobs.runner.ts), listed and retried by the CLI.
// A claimed row carries its claim in locked_until: whatever the runner then writes of it (done,
// failed, let go) is written only while that claim holds, so a runner that lost the row to another
// (a leader replaced while it still ran) changes nothing of the other's.
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import { nowIso } from '../db.ts';
import type { Database, DB, JobRow, JobsTable, JobState } from '../schema.ts';

/** A row as its runner claimed it: its id and the claim (locked_until) it holds. */
export interface Claim {
  id: number;
  lockedUntil: string;
}

export async function insertJob(db: DB, row: Insertable<JobsTable>): Promise<void> {
  await db.insertInto('jobs').values(row).execute();
}

/**
 * Takes up to `limit` due jobs of one queue, oldest first: waiting ones whose time has come, and running ones
 * whose runner died (its lock ran out). Each is marked running until `lockedUntil`, its attempts
 * counted. Asked every ten seconds, so the usual answer, none, is a read (by jobs_queue_due), not a write.
 * The state is checked again on the rows updated: on PostgreSQL, of two runners at once, the
 * second to reach a row finds it taken.
 */
export async function claimDueJobs(db: DB, queue: string, now: Date, lockedUntil: Date, limit: number): Promise<JobRow[]> {
  const at = now.toISOString();
  const due = (eb: ExpressionBuilder<Database, 'jobs'>) => eb.or([
    eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', at)]),
    eb.and([eb('state', '=', 'running'), eb('locked_until', '<=', at)]),
  ]);
  // Two walks of jobs_queue_due, each in its order: the waiting ones oldest first, then the abandoned.
  const waiting = await db.selectFrom('jobs').select('id').where('queue', '=', queue).where('state', '=', 'pending').where('run_at', '<=', at)
    .orderBy('queue').orderBy('state').orderBy('run_at').limit(limit).execute();
  const abandoned = waiting.length < limit
    ? await db.selectFrom('jobs').select('id').where('queue', '=', queue).where('state', '=', 'running').where('locked_until', '<=', at)
      .limit(limit - waiting.length).execute()
    : [];
  const ids = [...waiting, ...abandoned].map((row) => row.id);
  if (ids.length === 0) return [];
  const claimed = await db.updateTable('jobs')
    .set({ state: 'running', locked_until: lockedUntil.toISOString(), attempts: sql`attempts + 1` })
    .where('id', 'in', ids).where(due)
    .returningAll()
    .execute();
  return claimed.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
}

/** Renews a claim just before its job runs; undefined when the row is no longer this claim's. */
export async function renewClaim(db: DB, claim: Claim, lockedUntil: Date): Promise<Claim | undefined> {
  const renewed = lockedUntil.toISOString();
  const result = await db.updateTable('jobs').set({ locked_until: renewed })
    .where('id', '=', claim.id).where('state', '=', 'running').where('locked_until', '=', claim.lockedUntil).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { id: claim.id, lockedUntil: renewed } : undefined;
}

/** Claimed rows not run after all (a runner stopping): due again, their try not counted. */
export async function releaseClaims(db: DB, claims: readonly Claim[]): Promise<void> {
  for (const claim of claims) {
    await db.updateTable('jobs').set({ state: 'pending', locked_until: null, attempts: sql`attempts - 1` })
      .where('id', '=', claim.id).where('state', '=', 'running').where('locked_until', '=', claim.lockedUntil).execute();
  }
}

/**
 * Every row of `queue` still marked running, when its runner starts as the only one (the
 * leader's): the runner that had it is gone. Due again, the try that was under way counted, so that a job which kills the process is
 * given up in the end instead of run first at every start.
 */
export async function releaseAbandoned(db: DB, queue: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'pending', locked_until: null }).where('queue', '=', queue).where('state', '=', 'running').execute();
}

/** A job done: it leaves the table. */
export async function deleteJob(db: DB, claim: Claim): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', claim.id).where('locked_until', '=', claim.lockedUntil).execute();
}

/** A job that failed and will be tried again at `runAt`. */
export async function rescheduleJob(db: DB, claim: Claim, runAt: Date, error: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'pending', run_at: runAt.toISOString(), locked_until: null, last_error: error })
    .where('id', '=', claim.id).where('locked_until', '=', claim.lockedUntil).execute();
}

/** A job given up on: kept, 'failed', for an operator to see and retry. */
export async function giveUpJob(db: DB, claim: Claim, error: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'failed', locked_until: null, last_error: error })
    .where('id', '=', claim.id).where('locked_until', '=', claim.lockedUntil).execute();
}

export async function countJobsOfKind(db: DB, kind: string): Promise<number> {
  const row = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', kind).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Jobs of the given kinds and states, oldest first. */
export function listJobs(db: DB, kinds: readonly string[], states: readonly JobState[]): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('kind', 'in', kinds).where('state', 'in', states)
    .orderBy('run_at').orderBy('id').execute();
}

/**
 * Failed jobs of the given kinds (or the one `id`) due again now, as if queued now: the runner
 * gives up counting from created_at.
 */
export async function retryFailedJobs(db: DB, kinds: readonly string[], id?: number): Promise<number> {
  let update = db.updateTable('jobs')
    .set({ state: 'pending', run_at: nowIso(), attempts: 0, created_at: nowIso(), last_error: null })
    .where('kind', 'in', kinds).where('state', '=', 'failed');
  if (id !== undefined) update = update.where('id', '=', id);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How many jobs of each kind are in each of `states`: read through jobs_due, which begins with the state. */
export async function countJobsByKindAndState(db: DB, states: readonly JobState[]): Promise<{ kind: string; state: JobState; n: number }[]> {
  const rows = await db.selectFrom('jobs').select(['kind', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('state', 'in', states).groupBy(['kind', 'state']).execute();
  return rows.map((row) => ({ kind: row.kind, state: row.state, n: Number(row.n) }));
}
