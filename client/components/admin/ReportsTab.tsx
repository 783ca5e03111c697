// Admin, Reports tab (DESIGN.md, Reports): what readers reported, one row per article or comment,
// most reported first, with its preview, author, reasons, count, first and last time and the
// reporters' notes (never who they are); Dismiss, Delete with a reason, or Ban its author. Each
// closes every open report on it and tells each reporter. 'Closed' shows how each one ended.
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { REPORT_REASON_LABELS } from '../../../shared/reports.ts';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { humanDateTime, plural } from '../../format.ts';
import { usePagedList } from '../../hooks/usePagedList.ts';
import type { ReportGroup } from '../../types.ts';
import { postHref } from '../posts/PostBits.tsx';
import { BanDialog, DeleteCommentDialog, DeletePostDialog } from './AdminDialogs.tsx';
import { AdminFilter, AdminList } from './AdminList.tsx';

const PAGE_SIZE = 50;
const STATUSES = [{ value: 'open', label: 'Open' }, { value: 'closed', label: 'Closed' }] as const;
type Status = (typeof STATUSES)[number]['value'];

const RESOLUTIONS: Record<NonNullable<ReportGroup['resolution']>, string> = {
  dismissed: 'Dismissed',
  deleted: 'Content deleted',
  banned: 'Author banned',
  removed: 'Removed by its author',
};

/** How a row names what was reported, for buttons read aloud. */
function nameOf(group: ReportGroup): string {
  const title = group.content?.post_title;
  if (group.target_type === 'post') return title ? `“${title}”` : 'this article';
  return `the comment${group.author ? ` by ${group.author.username}` : ''}${title ? ` on “${title}”` : ''}`;
}

export function ReportsTab({ onChanged }: { onChanged: () => void }) {
  const [status, setStatus] = useState<Status>('open');
  const [deleting, setDeleting] = useState<ReportGroup | null>(null);
  const [banning, setBanning] = useState<ReportGroup | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const fetchPage = useCallback(async (skip: number, limit: number) => {
    const response = await api.admin.reports({ skip, limit, status });
    return { items: response.reports, total: response.total };
  }, [status]);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading reports'));
  const groups = list.items;

  async function dismiss(group: ReportGroup) {
    setBusyId(group.id);
    try {
      await api.admin.dismissReports(group.target_type, group.target_id);
      toastSuccess('Reports dismissed', 'Error dismissing reports');
      list.remove(group.id);
    } catch (error) {
      toastApiError(error, 'Error dismissing reports');
    } finally {
      setBusyId(null);
    }
  }

  /** A ban resolves the reports on everything its author wrote. */
  function banned(authorId: number) {
    for (const group of groups ?? []) if (group.author?.id === authorId) list.remove(group.id);
    onChanged();
  }

  return (
    <section aria-label="Reports">
      <div className="admin-toolbar">
        <AdminFilter id="admin-report-status" label="Status" value={status} options={STATUSES} onChange={setStatus} />
      </div>
      <AdminList list={list} loading="Loading reports…" noun={`${status} report`} what="reports"
        empty={status === 'open' ? 'Nothing is reported. The readers are content.' : 'No report has been closed yet.'}>
        {(group) => (
          <ReportRow key={group.id} group={group} busy={busyId === group.id}
            onDismiss={() => void dismiss(group)} onDelete={() => setDeleting(group)} onBan={() => setBanning(group)} />
        )}
      </AdminList>
      {deleting?.content && deleting.target_type === 'post' ? (
        <DeletePostDialog post={{ id: deleting.target_id, title: deleting.content.post_title, author_username: deleting.author?.username ?? 'a deleted account' }}
          onClose={() => setDeleting(null)} onDeleted={() => { list.remove(deleting.id); onChanged(); }} />
      ) : null}
      {deleting?.content && deleting.target_type === 'comment' ? (
        <DeleteCommentDialog comment={{ id: deleting.target_id, author_username: deleting.author?.username ?? 'a deleted account', content: deleting.content.excerpt }}
          onClose={() => setDeleting(null)} onDeleted={() => list.remove(deleting.id)} />
      ) : null}
      {banning?.author ? (
        <BanDialog user={banning.author} onClose={() => setBanning(null)} onDone={() => banned(banning.author!.id)} />
      ) : null}
    </section>
  );
}

function ReportRow({ group, busy, onDismiss, onDelete, onBan }: {
  group: ReportGroup; busy: boolean; onDismiss: () => void; onDelete: () => void; onBan: () => void;
}) {
  const { content, author } = group;
  const article = content ? <Link href={postHref({ id: content.post_id })}>{content.post_title}</Link> : null;
  return (
    <li className="admin-row report-row" data-target={`${group.target_type}-${group.target_id}`}>
      <div className="admin-row__main">
        <p className="admin-row__title">
          <span className="level-badge">{group.target_type === 'post' ? 'Article' : 'Comment'}</span>
          {content ? (group.target_type === 'post' ? article : <span>on “{article}”</span>) : <em>Gone: deleted since</em>}
          {content?.archived ? <span className="level-badge">Archived</span> : null}
        </p>
        {content ? <p className="admin-row__excerpt report-row__excerpt">{content.excerpt}</p> : null}
        <dl className="admin-stats-line">
          <div><dt>Author</dt><dd>{author?.username ?? '—'}</dd></div>
          <div><dt>Reports</dt><dd>{group.count}</dd></div>
          <div><dt>Reasons</dt><dd>{group.reasons.map((r) => `${REPORT_REASON_LABELS[r.reason]} ×${r.count}`).join(', ')}</dd></div>
          <div><dt>First</dt><dd><time dateTime={group.first_reported_at}>{humanDateTime(group.first_reported_at)}</time></dd></div>
          {group.count > 1 ? <div><dt>Last</dt><dd><time dateTime={group.last_reported_at}>{humanDateTime(group.last_reported_at)}</time></dd></div> : null}
          {group.resolution && group.closed_at ? (
            <div><dt>Closed</dt><dd>{RESOLUTIONS[group.resolution]}{group.closed_by ? ` by ${group.closed_by}` : ''},{' '}
              <time dateTime={group.closed_at}>{humanDateTime(group.closed_at)}</time></dd></div>
          ) : null}
        </dl>
        {group.notes.length > 0 ? (
          <ul className="report-notes" aria-label={`Notes from ${plural(group.notes.length, 'reader')}`}>
            {group.notes.map((n, i) => <li key={i}><strong>{REPORT_REASON_LABELS[n.reason]}:</strong> {n.note}</li>)}
          </ul>
        ) : null}
      </div>
      {group.status === 'open' ? (
        <div className="admin-row__actions">
          <button type="button" className="button button--small" disabled={busy} onClick={onDismiss}
            aria-label={`Dismiss the reports on ${nameOf(group)}`}>Dismiss</button>
          {content ? (
            <button type="button" className="button button--small button--danger" disabled={busy} onClick={onDelete}
              aria-label={`Delete ${nameOf(group)}`}>Delete</button>
          ) : null}
          {author && author.level !== 'admin' ? (
            <button type="button" className="button button--small button--danger" disabled={busy} onClick={onBan}
              aria-label={`Ban ${author.username}`}>Ban author</button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
