// Reports on the wire: a reader's own report as created, and the admin tab's groups (DESIGN.md,
// Reports: preview, author, reasons, count, first and last time). Who reported is never shown.
import { excerpt } from '../../shared/excerpt.ts';
import { htmlText } from '../../shared/html-text.ts';
import type { ReportReason, ReportResolution, ReportTargetType, UserLevel } from '../schema.ts';
import type { GroupReportRow, ReportGroupRow, ReportStatus } from './reports.repo.ts';

export interface Report {
  id: number;
  target_type: ReportTargetType;
  target_id: number;
  reason: ReportReason;
  note: string;
  status: 'open';
  created_at: string;
}

/** What was reported, as it is now. */
export interface ReportedContent {
  /** The article, or the article the comment is on. */
  post_id: number;
  post_title: string;
  /** The article's beginning, or the whole comment. */
  excerpt: string;
  archived: boolean;
}

export interface ReportGroup {
  /** The group's first report: a key for lists. */
  id: number;
  target_type: ReportTargetType;
  target_id: number;
  status: ReportStatus;
  count: number;
  first_reported_at: string;
  last_reported_at: string;
  /** Most given first. */
  reasons: Array<{ reason: ReportReason; count: number }>;
  /** The reporters' notes, newest first (at most NOTES_SHOWN). */
  notes: Array<{ reason: ReportReason; note: string; created_at: string }>;
  /** null once the content is gone. */
  content: ReportedContent | null;
  author: { id: number; username: string; level: UserLevel } | null;
  /** Only for a reply from the fediverse (then `author` is null): who wrote it, as a comment shows them. */
  remote_author?: { handle: string; name: string; url: string };
  /** Closed groups: how, when and by which admin (null: the operator at the CLI, or no admin at all). */
  resolution: ReportResolution | null;
  closed_at: string | null;
  closed_by: string | null;
}

export const NOTES_SHOWN = 20;
const POST_EXCERPT = 300;
const COMMENT_EXCERPT = 1000;

/** The key a group's reasons and notes are found under. */
export function groupKey(row: Pick<GroupReportRow, 'target_type' | 'target_id' | 'closed_at'>): string {
  return `${row.target_type} ${row.target_id} ${row.closed_at ?? ''}`;
}

export function toReportGroup(
  row: ReportGroupRow, status: ReportStatus,
  reasons: ReportGroup['reasons'], notes: ReportGroup['notes'],
): ReportGroup {
  const content: ReportedContent | null = row.post_id !== null && row.html !== null ? {
    post_id: Number(row.post_id),
    post_title: row.post_title ?? '',
    excerpt: excerpt(htmlText(row.html), row.target_type === 'post' ? POST_EXCERPT : COMMENT_EXCERPT),
    archived: Number(row.post_archived) === 1,
  } : null;
  const group: ReportGroup = {
    id: Number(row.first_id),
    target_type: row.target_type,
    target_id: Number(row.target_id),
    status,
    count: row.n,
    first_reported_at: row.first_at,
    last_reported_at: row.last_at,
    reasons: [...reasons].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    notes: notes.slice(0, NOTES_SHOWN),
    content,
    author: row.author_id !== null && row.author_username !== null && row.author_level !== null
      ? { id: Number(row.author_id), username: row.author_username, level: row.author_level } : null,
    resolution: row.resolution,
    closed_at: row.closed_at,
    closed_by: row.closed_by,
  };
  if (row.remote_handle !== null) group.remote_author = { handle: `@${row.remote_handle}`, name: row.remote_name ?? '', url: row.remote_url ?? '' };
  return group;
}
