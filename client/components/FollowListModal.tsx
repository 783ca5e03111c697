// The followers/following list of SPEC §2 (Modals) and §4: pages of 20, 'Load more' only while the
// last page came back full; with canUnfollow (the owner's own following list) each row can be
// unfollowed, which removes it and lowers the total. Followers from the fediverse (remoteCount of
// them) come after the local ones, with their handles, in pages of their own.
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../api.ts';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { mojoRounded, plural } from '../format.ts';
import { remoteFollowersText } from '../../shared/fediverse.ts';
import type { FollowListItem, RemoteAuthor } from '../types.ts';
import { Avatar } from './Avatar.tsx';
import { Modal } from './Modal.tsx';
import { authorHref } from './posts/PostBits.tsx';
import { RemoteAuthorLink, RemoteAvatar, remoteName } from './RemoteAuthor.tsx';

export const FOLLOW_PAGE_SIZE = 20;

type Kind = 'followers' | 'following';

export function FollowListModal({ userId, kind, title, onClose, canUnfollow = false, onUnfollowed, remoteCount = 0 }: {
  userId: number;
  kind: Kind;
  title: string;
  onClose(): void;
  canUnfollow?: boolean;
  onUnfollowed?(user: FollowListItem): void;
  /** The user's remote_followers_count: their followers list goes on to these. */
  remoteCount?: number;
}) {
  const [items, setItems] = useState<FollowListItem[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [busyId, setBusyId] = useState<number | null>(null);
  const withRemote = kind === 'followers' && remoteCount > 0;
  const remote = useRemoteFollowers(userId, withRemote);

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
  // Once the local followers are all shown, the fediverse's follow.
  const localDone = total !== null && !hasMore && !loading;
  const { started, load: loadRemote } = remote;
  useEffect(() => {
    if (localDone && withRemote && !started) void loadRemote(0);
  }, [localDone, withRemote, started, loadRemote]);

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
  const remoteTotal = remote.total ?? remoteCount;
  const busy = loading || remote.loading;
  const more = hasMore || (localDone && remote.hasMore);

  return (
    <Modal title={title} onClose={onClose}>
      <div className="follow-list">
        {total !== null ? (
          <p className="follow-list__total" aria-live="polite">
            {plural(total, 'person', 'people')}{withRemote && remoteTotal > 0 ? ` ${remoteFollowersText(remoteTotal)}` : ''}
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
        {remote.rows.length > 0 ? (
          <>
            <h3 className="follow-list__heading">On the fediverse</h3>
            <ul className="follow-list__rows" aria-label="Followers on the fediverse">
              {remote.rows.map((author) => (
                <li key={author.handle} className="follow-list__row">
                  <RemoteAvatar author={author} size={40} />
                  <div className="follow-list__who">
                    <RemoteAuthorLink author={author} className="follow-list__name" />
                    {remoteName(author) !== author.handle ? <span className="follow-list__meta follow-list__handle">{author.handle}</span> : null}
                  </div>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {!loading && items.length === 0 && !withRemote ? <p className="follow-list__empty">{emptyText}</p> : null}
        {busy ? <p className="follow-list__loading" role="status">Loading…</p> : null}
        {more && !busy ? (
          <div className="follow-list__more">
            <button type="button" className="button"
              onClick={() => void (hasMore ? loadPage(items.length) : remote.load(remote.rows.length))}>Load more</button>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}

/** The followers from the fediverse, page by page once asked for (GET /api/users/:id/remote-followers). */
function useRemoteFollowers(userId: number, wanted: boolean) {
  const [rows, setRows] = useState<RemoteAuthor[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [started, setStarted] = useState(false);

  const load = useCallback(async (skip: number) => {
    if (!wanted) return;
    setStarted(true);
    setLoading(true);
    try {
      const page = await api.follows.remoteFollowers(userId, { skip, limit: FOLLOW_PAGE_SIZE });
      setRows((old) => (skip === 0 ? page.remote_followers
        : [...old, ...page.remote_followers.filter((r) => !old.some((o) => o.handle === r.handle))]));
      setTotal(page.total);
      setHasMore(page.remote_followers.length === FOLLOW_PAGE_SIZE);
    } catch {
      toast.error('Error loading users');
    } finally {
      setLoading(false);
    }
  }, [userId, wanted]);

  return { rows, total, hasMore, loading, started, load };
}
