// Admin, Banned tab: who is banned, how and why, for how long (the end in the reader's own
// time zone), and Unban. 50 rows at a time with 'Load more'.
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { humanDateTime, showingCount } from '../../format.ts';
import { usePagedList } from '../../hooks/usePagedList.ts';
import type { BannedUser } from '../../types.ts';
import { LoadMore } from '../LoadMore.tsx';
import { Loading } from '../Loading.tsx';

const PAGE_SIZE = 50;

export function BannedTab({ onChanged }: { onChanged: () => void }) {
  const [busyId, setBusyId] = useState<number | null>(null);
  const fetchPage = useCallback(async (skip: number, limit: number) => {
    const response = await api.admin.bannedUsers({ skip, limit });
    return { items: response.banned_users, total: response.total };
  }, []);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading banned users'));
  const banned = list.items;

  async function unban(user: BannedUser) {
    setBusyId(user.id);
    try {
      await api.admin.unban(user.id);
      toastSuccess('User unbanned successfully', 'Error unbanning user');
      list.remove(user.id);
      onChanged();
    } catch (error) {
      toastApiError(error, 'Error unbanning user');
    } finally {
      setBusyId(null);
    }
  }

  if (banned === null) return <Loading label="Loading banned users…" />;
  if (banned.length === 0) return <p className="empty-state">There are currently no banned users.</p>;
  return (
    <section aria-label="Banned users">
      <p className="admin-count" aria-live="polite">{showingCount(banned.length, list.total, 'banned user')}</p>
      <ul className="admin-list">
        {banned.map((user) => (
          <li key={user.id} className="admin-row">
            <div className="admin-row__main">
              <p className="admin-row__title">
                {user.username}
                <span className={user.ban_permanent ? 'level-badge level-badge--banned' : 'level-badge'}>
                  {user.ban_permanent ? 'Permanent' : 'Temporary'}
                </span>
              </p>
              <p className="admin-row__sub">{user.email}</p>
              <p className="admin-row__excerpt"><strong>Reason:</strong> {user.ban_reason || '—'}</p>
              <dl className="admin-stats-line">
                <div><dt>Time remaining</dt><dd>{user.time_remaining}</dd></div>
                <div><dt>Ends</dt><dd>{user.ban_until ? <time dateTime={user.ban_until}>{humanDateTime(user.ban_until)}</time> : 'Never'}</dd></div>
              </dl>
            </div>
            <div className="admin-row__actions">
              <button type="button" className="button button--small" disabled={busyId === user.id}
                onClick={() => void unban(user)} aria-label={`Unban ${user.username}`}>Unban</button>
            </div>
          </li>
        ))}
      </ul>
      <LoadMore list={list} what="banned users" />
    </section>
  );
}
