// Admin, Users tab: search by username or email, filter by level, and per row Make/Remove Admin,
// Ban (not for oneself or admins) and Notify. 50 rows at a time with 'Load more'.
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { oneDecimal, relativeTime } from '../../format.ts';
import { usePagedList } from '../../hooks/usePagedList.ts';
import { currentUser } from '../../state/session.ts';
import type { PrivateUser, UserLevel } from '../../types.ts';
import { authorHref } from '../posts/PostBits.tsx';
import { BanDialog, NotifyDialog } from './AdminDialogs.tsx';
import { AdminFilter, AdminList, AdminSearch } from './AdminList.tsx';

const LEVELS = [
  { value: 'all', label: 'All levels' },
  { value: 'user', label: 'Users' },
  { value: 'admin', label: 'Administrators' },
] as const satisfies ReadonlyArray<{ value: 'all' | UserLevel; label: string }>;
type Level = (typeof LEVELS)[number]['value'];
const PAGE_SIZE = 50;
type Dialog = { kind: 'ban' | 'notify'; user: PrivateUser } | null;

export function UsersTab({ onChanged }: { onChanged: () => void }) {
  useSignals();
  const me = currentUser.value;
  const [query, setQuery] = useState('');
  const [level, setLevel] = useState<Level>('all');
  const [busyId, setBusyId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  const fetchPage = useCallback(async (skip: number, limit: number) => {
    const response = await api.admin.users({ skip, limit, level: level === 'all' ? undefined : level, search: query });
    return { items: response.users, total: response.total };
  }, [level, query]);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading users'));

  /** A row after a change made here: updated in place, or gone when it left the level filter. */
  function changed(user: PrivateUser) {
    if (level !== 'all' && user.level !== level) list.remove(user.id);
    else list.replace(user);
    onChanged();
  }

  async function changeLevel(user: PrivateUser) {
    const next = user.level === 'admin' ? 'user' : 'admin';
    setBusyId(user.id);
    try {
      const response = await api.admin.changeLevel({ user_id: user.id, level: next });
      toastSuccess(next === 'admin' ? 'User successfully promoted to admin' : 'User successfully demoted to user', 'Error updating user level');
      changed(response.user);
    } catch (error) {
      toastApiError(error, 'Error updating user level');
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section aria-label="Users">
      <AdminSearch id="admin-user-search" label="Search users by username or email" placeholder="Search by username or email" onSearch={setQuery}>
        <AdminFilter id="admin-level" label="Level" value={level} options={LEVELS} onChange={setLevel} />
      </AdminSearch>
      <AdminList list={list} loading="Loading users…" noun="user" query={query} empty="No users found." what="users">
        {(user) => {
          const self = me?.id === user.id;
          return (
            <li key={user.id} className="admin-row admin-row--user">
              <div className="admin-row__main">
                <p className="admin-row__title">
                  <Link href={authorHref(user.username)}>{user.username}</Link>
                  <span className={user.level === 'admin' ? 'level-badge level-badge--admin' : 'level-badge'}>
                    {user.level === 'admin' ? 'Admin' : 'User'}
                  </span>
                  {user.is_banned ? <span className="level-badge level-badge--banned">Banned</span> : null}
                  {self ? <span className="admin-row__you">(you)</span> : null}
                </p>
                <p className="admin-row__sub">{user.email}</p>
                <dl className="admin-stats-line">
                  <div><dt>Posts</dt><dd>{user.posts_count}</dd></div>
                  <div><dt>Followers</dt><dd>{user.followers_count}</dd></div>
                  <div><dt>Mojo</dt><dd>{oneDecimal(user.mojo)}</dd></div>
                  <div><dt>Last login</dt><dd>{user.last_login ? relativeTime(user.last_login) : 'Never'}</dd></div>
                </dl>
              </div>
              <div className="admin-row__actions">
                {self ? null : (
                  <button type="button" className="button button--small" disabled={busyId === user.id}
                    onClick={() => void changeLevel(user)} aria-label={`${user.level === 'admin' ? 'Remove Admin' : 'Make Admin'}: ${user.username}`}>
                    {user.level === 'admin' ? 'Remove Admin' : 'Make Admin'}
                  </button>
                )}
                {self || user.level === 'admin' ? null : (
                  <button type="button" className="button button--small button--danger"
                    onClick={() => setDialog({ kind: 'ban', user })} aria-label={`Ban ${user.username}`}>Ban</button>
                )}
                <button type="button" className="button button--small"
                  onClick={() => setDialog({ kind: 'notify', user })} aria-label={`Notify ${user.username}`}>Notify</button>
              </div>
            </li>
          );
        }}
      </AdminList>
      {dialog?.kind === 'ban' ? (
        <BanDialog user={dialog.user} onClose={() => setDialog(null)} onDone={changed} />
      ) : null}
      {dialog?.kind === 'notify' ? <NotifyDialog user={dialog.user} onClose={() => setDialog(null)} /> : null}
    </section>
  );
}
