// The SQL of the admin's Fediverse tab: every local user's remote followers, the latest
// deliveries (federation_deliveries) and the deliveries failing (jobs being retried or given up).
import { sql } from 'kysely';
import type { Page } from '../http.ts';
import type { DB, JobState } from '../schema.ts';
import { FEDIFY_JOB } from './message-queue.ts';
import { SEND_JOB } from '../federation-outgoing/federation-outgoing.service.ts';

export interface RemoteFollowerRow {
  handle: string;
  name: string;
  url: string;
  avatar: string | null;
  follows: string;
  created_at: string;
}

/** Newest first, by remote_followers_created (migrations/0025_federation_blocks.ts). */
export function listAllRemoteFollowers(db: DB, page: Page): Promise<RemoteFollowerRow[]> {
  return db.selectFrom('remote_followers as f')
    .innerJoin('remote_actors as a', 'a.id', 'f.actor_id')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['a.handle', 'a.name', sql<string>`coalesce(a.url, a.uri)`.as('url'), 'a.avatar', 'u.username as follows', 'f.created_at'])
    .orderBy('f.created_at', 'desc').orderBy('f.user_id', 'desc').orderBy('f.actor_id', 'desc')
    .limit(page.limit).offset(page.skip).execute();
}

export async function countAllRemoteFollowers(db: DB): Promise<number> {
  const row = await db.selectFrom('remote_followers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface DeliveryRow {
  id: number;
  at: string;
  inbox: string;
  domain: string;
  activity_type: string;
  ok: number;
  error: string | null;
}

/** The latest first, by federation_deliveries_at. */
export function listDeliveries(db: DB, page: Page): Promise<DeliveryRow[]> {
  return db.selectFrom('federation_deliveries').select(['id', 'at', 'inbox', 'domain', 'activity_type', 'ok', 'error'])
    .orderBy('at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.skip).execute();
}

export async function countDeliveries(db: DB): Promise<number> {
  const row = await db.selectFrom('federation_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The federation jobs that failed at least once, waiting for their next try or given up: the
 * condition of jobs_federation_retries (migrations/0025_federation_blocks.ts), written as literal
 * SQL so that both databases see the query is within the index.
 */
const RETRIED = sql<boolean>`kind IN (${sql.lit(SEND_JOB)}, ${sql.lit(FEDIFY_JOB)}) AND attempts > 0 AND state <> 'running'`;

export interface RetriedJobRow {
  id: number;
  kind: string;
  state: JobState;
  payload: string;
  attempts: number;
  last_error: string | null;
  run_at: string;
}

/** Latest run_at first: the next tries, then what was given up on. */
export function listRetriedDeliveries(db: DB, page: Page): Promise<RetriedJobRow[]> {
  return db.selectFrom('jobs').select(['id', 'kind', 'state', 'payload', 'attempts', 'last_error', 'run_at'])
    .where(RETRIED)
    .orderBy('run_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.skip).execute();
}

export async function countRetriedDeliveries(db: DB): Promise<number> {
  const row = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n'))
    .where(RETRIED).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Usernames by id, for the failures that name a local sender. */
export async function findUsernames(db: DB, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
