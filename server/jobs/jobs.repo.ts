// The jobs table's SQL (migrations/0016_jobs.ts): rows written beside the act that causes the work
// (jobs.service.ts), claimed by the leader's runner (jobs.runner.ts), listed and retried by the CLI.
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import { nowIso } from '../db.ts';
import type { Database, DB, JobRow, JobsTable, JobState } from '../schema.ts';

/** Adds a job row as given (jobs.service.ts's enqueueJob builds it). */
export async function insertJob(db: DB, row: Insertable<JobsTable>): Promise<void> {
  const insert = db.insertInto('jobs').values(row);
  // The conflict target names jobs_once's own predicate, literally: both databases match a partial
  // index only by its WHERE clause, which a bound parameter would not be.
  await (row.once_key == null ? insert : insert.onConflict((oc) => oc.column('once_key')
    .where(sql<boolean>`once_key IS NOT NULL AND state = 'pending'`).doNothing())).execute();
}

/**
 * Takes up to `limit` due jobs, oldest first: waiting ones whose time has come, and running ones
 * whose runner died (its lock ran out). Each is marked running until `lockedUntil`, its attempts
 * counted. Asked every ten seconds, so the usual answer, none, is a read (by jobs_due), not a write.
 * The state is checked again on the rows updated: on PostgreSQL, of two runners at once (a leader
 * losing its session while another takes over), the second to reach a row finds it taken.
 */
export async function claimDueJobs(db: DB, now: Date, lockedUntil: Date, limit: number): Promise<JobRow[]> {
  const at = now.toISOString();
  const due = (eb: ExpressionBuilder<Database, 'jobs'>) => eb.or([
    eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', at)]),
    eb.and([eb('state', '=', 'running'), eb('locked_until', '<=', at)]),
  ]);
  // Two walks of jobs_due, each in its order: the waiting ones oldest first, then the abandoned.
  const waiting = await db.selectFrom('jobs').select('id').where('state', '=', 'pending').where('run_at', '<=', at)
    .orderBy('state').orderBy('run_at').limit(limit).execute();
  const abandoned = waiting.length < limit
    ? await db.selectFrom('jobs').select('id').where('state', '=', 'running').where('locked_until', '<=', at).limit(limit - waiting.length).execute()
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

/** Claimed jobs not run after all (a runner stopping, or starting after one that died): due again, their try not counted. */
export async function releaseJobs(db: DB, ids?: readonly number[]): Promise<void> {
  if (ids?.length === 0) return;
  let update = db.updateTable('jobs').set({ state: 'pending', locked_until: null, attempts: sql`attempts - 1` }).where('state', '=', 'running');
  if (ids) update = update.where('id', 'in', ids);
  await update.execute();
}

/** A job done: it leaves the table. */
export async function deleteJob(db: DB, id: number): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).execute();
}

/** A job that failed and will be tried again at `runAt`. */
export async function rescheduleJob(db: DB, id: number, runAt: Date, error: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'pending', run_at: runAt.toISOString(), locked_until: null, last_error: error })
    .where('id', '=', id).execute();
}

/** A job given up on: kept, 'failed', for an operator to see and retry. */
export async function giveUpJob(db: DB, id: number, error: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'failed', locked_until: null, last_error: error }).where('id', '=', id).execute();
}

/** Jobs of the given kinds and states, oldest first. */
export function listJobs(db: DB, kinds: readonly string[], states: readonly JobState[]): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('kind', 'in', kinds).where('state', 'in', states)
    .orderBy('run_at').orderBy('id').execute();
}

/**
 * Failed jobs of the given kinds (or the one `id`) due again now, as if queued now: the runner
 * gives up counting from created_at. Their once_key goes: a newer job may hold it.
 */
export async function retryFailedJobs(db: DB, kinds: readonly string[], id?: number): Promise<number> {
  let update = db.updateTable('jobs')
    .set({ state: 'pending', run_at: nowIso(), attempts: 0, created_at: nowIso(), once_key: null, last_error: null })
    .where('kind', 'in', kinds).where('state', '=', 'failed');
  if (id !== undefined) update = update.where('id', '=', id);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
