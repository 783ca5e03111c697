// The followers/following list of SPEC §2 (Modals) and §4: pages of 20, 'Load more' only while the
// last page came back full; with canUnfollow (the owner's own following list) each row can be
// unfollowed, which removes it and lowers the total.
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../api.ts';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { mojoRounded, plural } from '../format.ts';
import type { FollowListItem } from '../types.ts';
import { Avatar } from './Avatar.tsx';
import { Modal } from './Modal.tsx';
import { authorHref } from './posts/PostBits.tsx';

export const FOLLOW_PAGE_SIZE = 20;

type Kind = 'followers' | 'following';

export function FollowListModal({ userId, kind, title, onClose, canUnfollow = false, onUnfollowed }: {
  userId: number;
  kind: Kind;
  title: string;
  onClose(): void;
  canUnfollow?: boolean;
  onUnfollowed?(user: FollowListItem): void;
}) {
  const [items, setItems] = useState<FollowListItem[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [busyId, setBusyId] = useState<number | null>(null);

  const loadPage = useCallback(async (skip: number) => {
    setLoading(true);
    try {
      const query = { skip, limit: FOLLOW_PAGE_SIZE };
      const { rows, total: count } = kind === 'followers'
        ? await api.follows.followers(userId, query).then((p) => ({ rows: p.followers, total: p.total }))
        : await api.follows.following(userId, query).then((p) => ({ rows: p.following, total: p.total }));
      setItems((old) => (skip === 0 ? rows : [...old, ...rows.filter((r) => !old.some((o) => o.id === r.id))]));
      setTotal(count);
      setHasMore(rows.length === FOLLOW_PAGE_SIZE);
    } catch {
      toast.error('Error loading users');
    } finally {
      setLoading(false);
    }
  }, [userId, kind]);

  useEffect(() => { void loadPage(0); }, [loadPage]);

  async function unfollow(user: FollowListItem) {
    setBusyId(user.id);
    try {
      await api.follows.unfollow(user.id);
      setItems((old) => old.filter((u) => u.id !== user.id));
      setTotal((t) => (t === null ? t : Math.max(0, t - 1)));
      toastSuccess(`Unfollowed ${user.username}`, 'Error unfollowing user');
      onUnfollowed?.(user);
    } catch (error) {
      toastApiError(error, 'Error unfollowing user');
    } finally {
      setBusyId(null);
    }
  }

  const emptyText = kind === 'followers' ? 'No followers yet.' : 'Not following anyone yet.';

  return (
    <Modal title={title} onClose={onClose}>
      <div className="follow-list">
        {total !== null ? (
          <p className="follow-list__total" aria-live="polite">
            {plural(total, 'person', 'people')}
          </p>
        ) : null}
        {items.length > 0 ? (
          <ul className="follow-list__rows">
            {items.map((user) => (
              <li key={user.id} className="follow-list__row">
                <Avatar username={user.username} avatar={user.avatar} size={40} />
                <div className="follow-list__who">
                  <Link href={authorHref(user.username)} className="follow-list__name" onClick={onClose}>
                    {user.username}
                  </Link>
                  <span className="follow-list__meta">Mojo {mojoRounded(user.mojo)} · {plural(user.posts_count, 'article')}</span>
                </div>
                {canUnfollow ? (
                  <button type="button" className="button button--small" disabled={busyId === user.id}
                    aria-label={`Unfollow ${user.username}`} onClick={() => void unfollow(user)}>
                    Unfollow
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {!loading && items.length === 0 ? <p className="follow-list__empty">{emptyText}</p> : null}
        {loading ? <p className="follow-list__loading" role="status">Loading…</p> : null}
        {hasMore && !loading ? (
          <div className="follow-list__more">
            <button type="button" className="button" onClick={() => void loadPage(items.length)}>Load more</button>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
