// SQL for reports. Open reports are read through the partial indexes of migration 0009, whose
// `status = 'open'` / `status = 'closed'` the queries repeat as literal SQL (a bound value would
// keep SQLite from choosing a partial index). What a report names is joined in by its type and id.
import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { Page } from '../http.ts';
import type { Database, DB, ReportReason, ReportResolution, ReportTargetType, UserLevel } from '../schema.ts';

export interface Target {
  type: ReportTargetType;
  id: number;
}

export type ReportStatus = 'open' | 'closed';

const OPEN = sql.lit<'open'>('open');
const CLOSED = sql.lit<'closed'>('closed');

/** A comment as a report needs it: whose it is (null: a reply from the fediverse), and the article it is on. */
export function findCommentTarget(db: DB, id: number): Promise<{ id: number; post_id: number; author_id: number | null } | undefined> {
  return db.selectFrom('comments').select(['id', 'post_id', 'author_id']).where('id', '=', id).executeTakeFirst();
}

export interface NewReport {
  reporter_id: number;
  target: Target;
  /** null for a reply from the fediverse: no local account wrote it. */
  target_author_id: number | null;
  reason: ReportReason;
  note: string;
  created_at: string;
}

/** The new report's id; undefined when the reporter has an open report on the target already. */
export async function insertReport(trx: DB, report: NewReport): Promise<number | undefined> {
  const row = await trx.insertInto('reports').values({
    reporter_id: report.reporter_id, target_type: report.target.type, target_id: report.target.id,
    target_author_id: report.target_author_id, reason: report.reason, note: report.note, created_at: report.created_at,
  })
    .onConflict((oc) => oc.columns(['reporter_id', 'target_type', 'target_id']).where('status', '=', OPEN).doNothing())
    .returning('id').executeTakeFirst();
  return row?.id;
}

/** An open report with what its reporter is told about: the article's title and id (a comment's article). */
export interface OpenReportRow {
  id: number;
  reporter_id: number;
  target_type: ReportTargetType;
  target_id: number;
  title: string | null;
  post_id: number | null;
}

/** The open reports on one target, or on everything one author wrote. */
export function findOpenReports(db: DB, on: { target: Target } | { authorId: number }): Promise<OpenReportRow[]> {
  let query = db.selectFrom('reports as r')
    .leftJoin('posts as p', (join) => join.onRef('p.id', '=', 'r.target_id').on('r.target_type', '=', 'post'))
    .leftJoin('comments as c', (join) => join.onRef('c.id', '=', 'r.target_id').on('r.target_type', '=', 'comment'))
    .leftJoin('posts as cp', 'cp.id', 'c.post_id')
    .select(['r.id', 'r.reporter_id', 'r.target_type', 'r.target_id'])
    .select([sql<string | null>`coalesce(p.title, cp.title)`.as('title'), sql<number | null>`coalesce(p.id, cp.id)`.as('post_id')])
    .where('r.status', '=', OPEN);
  query = 'target' in on
    ? query.where('r.target_type', '=', on.target.type).where('r.target_id', '=', on.target.id)
    : query.where('r.target_author_id', '=', on.authorId);
  return query.orderBy('r.id').execute();
}

export async function closeReportRows(
  trx: DB, ids: readonly number[], resolution: ReportResolution, closedBy: number | null, at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('reports').set({ status: 'closed', resolution, closed_by: closedBy, closed_at: at })
    .where('id', 'in', [...ids]).execute();
}

/** One target's reports as the admin tab groups them: open ones per target; closed ones per act. */
export interface ReportGroupRow {
  first_id: number;
  target_type: ReportTargetType;
  target_id: number;
  n: number;
  first_at: string;
  last_at: string;
  resolution: ReportResolution | null;
  closed_at: string | null;
  closed_by: string | null;
  post_id: number | null;
  post_title: string | null;
  post_archived: number | null;
  /** The article's rendered text, or the comment's (server/markdown/). */
  html: string | null;
  author_id: number | null;
  author_username: string | null;
  author_level: UserLevel | null;
  /** A reply from the fediverse: its remote author's handle (user@domain), name and page. */
  remote_handle: string | null;
  remote_name: string | null;
  remote_url: string | null;
}

function groups(db: DB, status: ReportStatus) {
  const base = db.selectFrom('reports')
    .select(['target_type', 'target_id'])
    .select((eb) => [eb.fn.min('id').as('first_id'), eb.fn.countAll<number>().as('n'),
      eb.fn.min('created_at').as('first_at'), eb.fn.max('created_at').as('last_at')]);
  return status === 'open'
    ? base.where('status', '=', OPEN).groupBy(['target_type', 'target_id'])
      // Typed nulls: PostgreSQL must know the columns' types to join and compare them.
      .select([sql<ReportResolution | null>`CAST(NULL AS text)`.as('resolution'), sql<string | null>`CAST(NULL AS text)`.as('closed_at'),
        sql<number | null>`CAST(NULL AS integer)`.as('closed_by')])
    // One act closes a target's reports at one moment, by one admin, one way.
    : base.where('status', '=', CLOSED).groupBy(['closed_at', 'target_type', 'target_id', 'resolution', 'closed_by'])
      .select(['resolution', 'closed_at', 'closed_by']);
}

/**
 * A page of groups: open ones with the most reports first, then the latest reported; closed ones
 * the latest closed first. Each with what it names (gone: nulls) and that content's author.
 */
export function reportGroupsQuery(db: DB, status: ReportStatus, page: Page) {
  let grouped = groups(db, status);
  grouped = status === 'open'
    ? grouped.orderBy('n', 'desc').orderBy('last_at', 'desc').orderBy('first_id', 'desc')
    : grouped.orderBy('closed_at', 'desc').orderBy('first_id', 'desc');
  let query = db.selectFrom(grouped.limit(page.limit).offset(page.skip).as('g'))
    .leftJoin('posts as p', (join) => join.onRef('p.id', '=', 'g.target_id').on('g.target_type', '=', 'post'))
    .leftJoin('comments as c', (join) => join.onRef('c.id', '=', 'g.target_id').on('g.target_type', '=', 'comment'))
    .leftJoin('posts as cp', 'cp.id', 'c.post_id')
    .leftJoin('users as author', (join) => join.on(sql<SqlBool>`author.id = coalesce(p.author_id, c.author_id)`))
    .leftJoin('users as closer', 'closer.id', 'g.closed_by')
    .leftJoin('remote_actors as remote', 'remote.id', 'c.remote_actor_id')
    .select(['g.first_id', 'g.target_type', 'g.target_id', 'g.n', 'g.first_at', 'g.last_at', 'g.resolution', 'g.closed_at',
      'closer.username as closed_by', 'author.id as author_id', 'author.username as author_username', 'author.level as author_level',
      'remote.handle as remote_handle', 'remote.name as remote_name'])
    .select(sql<string | null>`coalesce(remote.url, remote.uri)`.as('remote_url'))
    .select([
      sql<number | null>`coalesce(p.id, cp.id)`.as('post_id'),
      sql<string | null>`coalesce(p.title, cp.title)`.as('post_title'),
      sql<number | null>`coalesce(p.archived, cp.archived)`.as('post_archived'),
      sql<string | null>`coalesce(p.content_html, c.content_html)`.as('html'),
    ]);
  query = status === 'open'
    ? query.orderBy('g.n', 'desc').orderBy('g.last_at', 'desc').orderBy('g.first_id', 'desc')
    : query.orderBy('g.closed_at', 'desc').orderBy('g.first_id', 'desc');
  return query;
}

export async function listReportGroups(db: DB, status: ReportStatus, page: Page): Promise<ReportGroupRow[]> {
  const rows = await reportGroupsQuery(db, status, page).execute();
  return rows.map((row) => ({ ...row, n: Number(row.n) }) as ReportGroupRow);
}

export async function countReportGroups(db: DB, status: ReportStatus): Promise<number> {
  const row = await db.selectFrom(groups(db, status).as('g')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A group as the page named it: its target, and for a closed one the moment it was closed. */
export interface GroupKey {
  target_type: ReportTargetType;
  target_id: number;
  closed_at: string | null;
}

export interface GroupReportRow {
  target_type: ReportTargetType;
  target_id: number;
  closed_at: string | null;
  reason: ReportReason;
  note: string;
  created_at: string;
}

function inGroups(eb: ExpressionBuilder<Database, 'reports'>, status: ReportStatus, keys: readonly GroupKey[]): Expression<SqlBool> {
  return eb.or(keys.map((key) => eb.and([
    eb('status', '=', status === 'open' ? OPEN : CLOSED),
    ...(status === 'closed' ? [eb('closed_at', '=', key.closed_at)] : []),
    eb('target_type', '=', key.target_type),
    eb('target_id', '=', key.target_id),
  ])));
}

/** How many reports of each reason the groups hold. */
export async function countReasons(db: DB, status: ReportStatus, keys: readonly GroupKey[]):
  Promise<Array<Omit<GroupReportRow, 'note' | 'created_at'> & { n: number }>> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('reports')
    .select(['target_type', 'target_id', 'closed_at', 'reason', (eb) => eb.fn.countAll<number>().as('n')])
    .where((eb) => inGroups(eb, status, keys))
    .groupBy(['target_type', 'target_id', 'closed_at', 'reason'])
    .execute();
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/** The notes the groups' reporters wrote, newest first (who wrote them is not read). */
export function listNotes(db: DB, status: ReportStatus, keys: readonly GroupKey[]): Promise<GroupReportRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom('reports')
    .select(['target_type', 'target_id', 'closed_at', 'reason', 'note', 'created_at'])
    .where((eb) => inGroups(eb, status, keys))
    .where('note', '<>', '')
    .orderBy('created_at', 'desc').orderBy('id', 'desc')
    .execute();
}

export async function countOpenReportGroups(db: DB): Promise<number> {
  return countReportGroups(db, 'open');
}
