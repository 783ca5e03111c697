// Reports (DESIGN.md, Reports): a signed-in reader reports an article or a comment, once while
// that report is open, never their own; admins see the open reports grouped by what they name,
// and any resolution — dismissing them here, deleting the content or banning its author (the
// admin feature and comments call closeReportsOn / closeReportsOnAuthor inside their own
// transaction) — closes every open report on it and tells each reporter. Content that goes any
// other way closes its reports quietly (migration 0009's triggers).
import { ALREADY_REPORTED, OWN_CONTENT_REPORT } from '../../shared/reports.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import type { Body, Page } from '../http.ts';
import { notify } from '../notifications/notifications.service.ts';
import { visiblePost } from '../posts/posts.service.ts';
import type { DB, UserRow } from '../schema.ts';
import { parseReport } from './reports.input.ts';
import { reportClosedNotice, type NoticeResolution } from './reports.notices.ts';
import {
  closeReportRows, countReasons, countReportGroups, findCommentTarget, findOpenReports, insertReport, listNotes,
  listReportGroups, type GroupKey, type OpenReportRow, type ReportStatus, type Target,
} from './reports.repo.ts';
import { groupKey, toReportGroup, type Report, type ReportGroup } from './reports.view.ts';

export type { Target } from './reports.repo.ts';

export const COMMENT_NOT_FOUND = 'Comment not found';
export const NO_OPEN_REPORTS = 'There are no open reports on this';

/** Who acted: an admin, or null for the operator at the admin CLI. */
export type Resolver = Pick<UserRow, 'id' | 'username'> | null;

/** Whose the target is (null: a reply from the fediverse), or the 404 a visitor would get for it: archived and missing alike. */
async function authorOfTarget(db: DB, target: Target): Promise<number | null> {
  if (target.type === 'post') return (await visiblePost(db, target.id, undefined)).author_id;
  const comment = await findCommentTarget(db, target.id);
  if (!comment) throw notFound(COMMENT_NOT_FOUND);
  try {
    await visiblePost(db, comment.post_id, undefined);
  } catch {
    throw notFound(COMMENT_NOT_FOUND);
  }
  return comment.author_id;
}

export async function reportContent(ctx: AppContext, reporter: UserRow, body: Body): Promise<Report> {
  const input = parseReport(body);
  const createdAt = nowIso();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const authorId = await authorOfTarget(trx, input.target);
    if (authorId === reporter.id) throw forbidden(OWN_CONTENT_REPORT);
    const inserted = await insertReport(trx, {
      reporter_id: reporter.id, target: input.target, target_author_id: authorId, reason: input.reason, note: input.note,
      created_at: createdAt,
    });
    if (inserted === undefined) throw conflict(ALREADY_REPORTED);
    return inserted;
  });
  return {
    id, target_type: input.target.type, target_id: input.target.id, reason: input.reason, note: input.note,
    status: 'open', created_at: createdAt,
  };
}

/** Closes these open reports as one act and tells each reporter how. */
async function closeAndTell(trx: DB, reports: OpenReportRow[], resolution: NoticeResolution, by: Resolver): Promise<number> {
  await closeReportRows(trx, reports.map((r) => r.id), resolution, by?.id ?? null, nowIso());
  for (const report of reports) {
    const { subject, message } = reportClosedNotice(resolution, report.target_type, report.title);
    // An article still there is linked; a deleted one is named only.
    const keepsLink = !(resolution === 'deleted' && report.target_type === 'post');
    await notify(trx, {
      userId: report.reporter_id, type: 'report_closed', subject, message, actor: by ?? undefined,
      ...(report.title === null ? {} : { post: { id: keepsLink ? report.post_id : null, title: report.title } }),
    });
  }
  return reports.length;
}

/** Inside an admin's act on one target (delete): closes its open reports, before the content goes. */
export async function closeReportsOn(trx: DB, target: Target, resolution: NoticeResolution, by: Resolver): Promise<number> {
  return closeAndTell(trx, await findOpenReports(trx, { target }), resolution, by);
}

/** Inside a ban: every open report on what the banned author wrote is resolved by it. */
export async function closeReportsOnAuthor(trx: DB, authorId: number, by: Resolver): Promise<number> {
  return closeAndTell(trx, await findOpenReports(trx, { authorId }), 'banned', by);
}

export async function dismissReports(ctx: AppContext, admin: UserRow, target: Target): Promise<{ message: string; closed: number }> {
  const closed = await ctx.db.transaction().execute(async (trx) => {
    const open = await findOpenReports(trx, { target });
    if (open.length === 0) throw notFound(NO_OPEN_REPORTS);
    return closeAndTell(trx, open, 'dismissed', admin);
  });
  return { message: 'Reports dismissed', closed };
}

export interface ReportGroupPage {
  reports: ReportGroup[];
  /** Groups in all. */
  total: number;
}

export async function listReports(ctx: AppContext, status: ReportStatus, page: Page): Promise<ReportGroupPage> {
  const [rows, total] = await Promise.all([listReportGroups(ctx.db, status, page), countReportGroups(ctx.db, status)]);
  const keys: GroupKey[] = rows.map((row) => ({ target_type: row.target_type, target_id: Number(row.target_id), closed_at: row.closed_at }));
  const [reasons, notes] = await Promise.all([countReasons(ctx.db, status, keys), listNotes(ctx.db, status, keys)]);
  const reasonsOf = new Map<string, ReportGroup['reasons']>();
  for (const row of reasons) {
    const key = groupKey(row);
    reasonsOf.set(key, [...reasonsOf.get(key) ?? [], { reason: row.reason, count: row.n }]);
  }
  const notesOf = new Map<string, ReportGroup['notes']>();
  for (const row of notes) {
    const key = groupKey(row);
    notesOf.set(key, [...notesOf.get(key) ?? [], { reason: row.reason, note: row.note, created_at: row.created_at }]);
  }
  return {
    reports: rows.map((row) => toReportGroup(row, status, reasonsOf.get(groupKey(row)) ?? [], notesOf.get(groupKey(row)) ?? [])),
    total,
  };
}
