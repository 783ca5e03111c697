// Admin, Banned tab: who is banned, how and why, for how long, and Unban.
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { api } from '../../api.ts';
import { toastApiError } from '../../feedback.ts';
import type { BannedUser } from '../../types.ts';
import { Loading } from '../Loading.tsx';

function endDate(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export function BannedTab({ onChanged }: { onChanged: () => void }) {
  const [banned, setBanned] = useState<BannedUser[] | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      const response = await api.get<{ banned_users: BannedUser[]; total: number }>('/api/admin/banned-users', { skip: 0, limit: 50 });
      setBanned(response.banned_users);
    } catch {
      setBanned((current) => current ?? []);
      toast.error('Error loading banned users');
    }
  }, []);

  useEffect(() => { void load(); }, [load]);

  async function unban(user: BannedUser) {
    setBusyId(user.id);
    try {
      await api.post(`/api/admin/unban-user/${user.id}`);
      toast.success('User unbanned successfully');
      setBanned((current) => current?.filter((u) => u.id !== user.id) ?? null);
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
                <div><dt>Ends</dt><dd>{user.ban_until ? <time dateTime={user.ban_until}>{endDate(user.ban_until)}</time> : 'Never'}</dd></div>
              </dl>
            </div>
            <div className="admin-row__actions">
              <button type="button" className="button button--small" disabled={busyId === user.id}
                onClick={() => void unban(user)} aria-label={`Unban ${user.username}`}>Unban</button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
