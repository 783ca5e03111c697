// One notification (SPEC §2, Notifications): an icon by type, subject, message, relative time,
// who sent it, the article it is about, a Read/New marker and, while unread, a mark-as-read button.
import type { ReactElement } from 'react';
import { Link } from 'wouter';
import { humanDateTime, relativeTime } from '../../format.ts';
import type { Notification } from '../../types.ts';
import { authorHref, postHref } from '../posts/PostBits.tsx';

const TYPE_LABELS: Record<Notification['type'], string> = {
  post_deleted: 'Article removed',
  ban_notice: 'Account notice',
  general: 'Message from the editors',
  other: 'Activity',
  comment_deleted: 'Comment removed',
  report_closed: 'Report outcome',
  mention: 'Mention',
};

function TypeIcon({ type }: { type: Notification['type'] }) {
  const paths: Record<Notification['type'], ReactElement> = {
    post_deleted: <><path d="M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13" /><path d="M10 11v6M14 11v6" /></>,
    ban_notice: <><circle cx="12" cy="12" r="8" /><path d="M6.5 6.5l11 11" /></>,
    general: <><path d="M4 6h16v12H4z" /><path d="M4 7l8 6 8-6" /></>,
    other: <><path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" /><path d="M10 20a2 2 0 0 0 4 0" /></>,
    comment_deleted: <><path d="M4 5h16v11H9l-5 4z" /><path d="M9.5 8.5l5 4M14.5 8.5l-5 4" /></>,
    report_closed: <><path d="M6 21V4" /><path d="M6 4h11l-2 4 2 4H6" /></>,
    mention: <><circle cx="12" cy="12" r="3.5" /><path d="M15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.3 6.7" /></>,
  };
  return (
    <svg className="notice__icon" viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor"
      strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" role="img" aria-label={TYPE_LABELS[type]}>
      <title>{TYPE_LABELS[type]}</title>
      {paths[type]}
    </svg>
  );
}

export function NotificationCard({ notification, busy, onMarkRead }: {
  notification: Notification;
  busy: boolean;
  onMarkRead: (notification: Notification) => void;
}) {
  const n = notification;
  return (
    <article className={n.read ? 'notice' : 'notice notice--unread'} aria-labelledby={`notice-${n.id}-subject`}
      data-type={n.type}>
      <TypeIcon type={n.type} />
      <div className="notice__body">
        <header className="notice__head">
          <span className={n.read ? 'notice__marker' : 'notice__marker notice__marker--new'}>{n.read ? 'Read' : 'New'}</span>
          <h2 className="notice__subject" id={`notice-${n.id}-subject`}>{n.subject}</h2>
        </header>
        <p className="notice__message">{n.message}</p>
        <p className="notice__meta">
          <time dateTime={n.created_at} title={humanDateTime(n.created_at)}>{relativeTime(n.created_at)}</time>
          {n.created_by ? <> · from <Link href={authorHref(n.created_by)}>{n.created_by}</Link></> : null}
          {n.post_title ? (
            <> · article: {n.post_id ? <Link href={postHref({ id: n.post_id })}>{n.post_title}</Link> : <em>{n.post_title}</em>}</>
          ) : null}
        </p>
      </div>
      {n.read ? null : (
        <button type="button" className="button button--small notice__action" disabled={busy}
          onClick={() => onMarkRead(n)} aria-label={`Mark “${n.subject}” as read`}>
          Mark as read
        </button>
      )}
    </article>
  );
}
