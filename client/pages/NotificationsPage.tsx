// /notifications (SPEC §2, Notifications): the signed-in user's notifications, 50 to a page, with
// All / Unread filters and mark-as-read, which also lowers the header bell's count.
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../api.ts';
import { Loading } from '../components/Loading.tsx';
import { NotificationCard } from '../components/notifications/NotificationCard.tsx';
import { LOAD_MORE_NOTICE, unreadHeadline } from '../components/notifications/notificationText.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { unreadCount } from '../state/notifications.ts';
import { isLoggedIn } from '../state/session.ts';
import type { Notification } from '../types.ts';

export const NOTIFICATIONS_PAGE_SIZE = 50;

type Filter = 'all' | 'unread';

export function NotificationsPage() {
  useSignals();
  const signedIn = isLoggedIn.value;
  const [filter, setFilter] = useState<Filter>('all');
  const [list, setList] = useState<Notification[] | null>(null);
  const [total, setTotal] = useState(0);
  const [allTotal, setAllTotal] = useState<number | null>(null);
  const [unread, setUnread] = useState(0);
  const [failed, setFailed] = useState(false);
  const [marking, setMarking] = useState<number | null>(null);

  const load = useCallback(async (which: Filter, signal?: AbortSignal) => {
    setFailed(false);
    try {
      const response = await api.notifications.list(
        { skip: 0, limit: NOTIFICATIONS_PAGE_SIZE, unread_only: which === 'unread' ? true : undefined }, signal);
      setList(response.notifications);
      setTotal(response.total);
      if (which === 'all') setAllTotal(response.total);
      setUnread(Math.max(0, response.unread_count));
      unreadCount.value = Math.max(0, response.unread_count);
    } catch {
      if (signal?.aborted) return;
      setFailed(true);
      toast.error('Error loading notifications');
    }
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    setList(null);
    void load(filter, controller.signal);
    return () => controller.abort();
  }, [signedIn, filter, load]);

  async function markRead(notification: Notification) {
    setMarking(notification.id);
    try {
      const response = await api.notifications.markRead(notification.id);
      const left = Math.max(0, typeof response.unread_count === 'number' ? response.unread_count : unread - 1);
      setUnread(left);
      unreadCount.value = left;
      if (filter === 'unread') {
        setList((current) => current?.filter((n) => n.id !== notification.id) ?? null);
        setTotal((t) => Math.max(0, t - 1));
      } else {
        setList((current) => current?.map((n) => (n.id === notification.id ? { ...n, read: true } : n)) ?? null);
      }
      toast.success('Notification marked as read');
    } catch {
      toast.error('Error marking notification as read');
    } finally {
      setMarking(null);
    }
  }

  if (!signedIn) {
    return (
      <article className="page page--notice">
        <PageHeading title="Notifications" />
        <p>Sign in to read your notifications.</p>
        <p><Link className="button button--primary" href="/login">Sign In</Link></p>
      </article>
    );
  }

  return (
    <article className="page notifications-page">
      <PageHeading title="Notifications" kicker="Letters to the desk">
        <p className="notifications-page__summary" aria-live="polite">{unreadHeadline(unread)}</p>
      </PageHeading>
      <div className="filter-tabs" role="group" aria-label="Show notifications">
        <button type="button" className="filter-tabs__button" aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
          All <span className="filter-tabs__count">({allTotal ?? '…'})</span>
        </button>
        <button type="button" className="filter-tabs__button" aria-pressed={filter === 'unread'} onClick={() => setFilter('unread')}>
          Unread <span className="filter-tabs__count">({unread})</span>
        </button>
      </div>
      {list === null && !failed ? <Loading label="Loading notifications…" /> : null}
      {failed ? (
        <div className="empty-state">
          <p>The notifications could not be loaded.</p>
          <button type="button" className="button" onClick={() => void load(filter)}>Try again</button>
        </div>
      ) : null}
      {list && list.length === 0 ? <EmptyNotifications filter={filter} /> : null}
      {list && list.length > 0 ? (
        <div className="notices">
          {list.map((n) => (
            <NotificationCard key={n.id} notification={n} busy={marking === n.id} onMarkRead={(x) => void markRead(x)} />
          ))}
        </div>
      ) : null}
      {list && list.length < total ? (
        <p className="notifications-page__more">
          <button type="button" className="button" onClick={() => toast(LOAD_MORE_NOTICE, { id: 'load-more' })}>
            Load more
          </button>
        </p>
      ) : null}
    </article>
  );
}

function EmptyNotifications({ filter }: { filter: Filter }) {
  if (filter === 'unread') {
    return (
      <div className="empty-state">
        <h2 className="empty-state__title">No unread notifications</h2>
        <p>You have read everything. New notices will appear here.</p>
      </div>
    );
  }
  return (
    <div className="empty-state">
      <h2 className="empty-state__title">No notifications yet</h2>
      <p>When readers follow you or comment on your articles, or the editors write to you, you will find it here.</p>
    </div>
  );
}
