// /moderation (DESIGN.md, Moderation log): every act of the editors that removed an article or a
// comment or restricted an account, newest first, with who acted, why and when; 50 to a page,
// paged by plain links (components/moderation/moderationQuery.ts). Rendered on the server.
import type { ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { ApiError } from '../api.ts';
import { useClock } from '../clock.ts';
import { MODERATION_PAGE_SIZE, moderationHref, moderationPageOf } from '../components/moderation/moderationQuery.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { authorHref, postHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonLines } from '../components/posts/Skeleton.tsx';
import { moderation } from '../endpoints.ts';
import { humanDateTime, plural } from '../format.ts';
import { useRead } from '../hooks/useRead.ts';
import type { ModerationEntry } from '../types.ts';

/** What the page is for, under its heading and in its description for search engines. */
export const MODERATION_LEDE = 'Every article and comment the editors removed, every ban and every change of rank: who acted, why and when.';

/** A page of the log: the page's one read (the server renders /moderation with its answer: server/pages/). */
export const moderationRead = (page: number) =>
  moderation.log({ skip: (page - 1) * MODERATION_PAGE_SIZE, limit: MODERATION_PAGE_SIZE });

export function ModerationPage() {
  const page = moderationPageOf(useSearch());
  const read = useRead(moderationRead(page));
  const log = read.value;
  const pages = log ? Math.max(1, Math.ceil(log.total / MODERATION_PAGE_SIZE)) : 1;

  return (
    <article className="page moderation">
      <PageHeading title="Moderation log" kicker="The editors' record">
        <p className="page-heading__lede">{MODERATION_LEDE}</p>
      </PageHeading>
      {read.error !== undefined ? (
        <p className="reader-empty">{read.error instanceof ApiError && read.error.detail ? read.error.detail : 'The log could not be loaded. Please try again.'}</p>
      ) : !log ? (
        <div><LoadingNote label="Loading the log…" /><SkeletonLines lines={6} /></div>
      ) : log.entries.length === 0 ? (
        <section className="reader-empty">
          <h2 className="reader-empty__title">{log.total === 0 ? 'Nothing to report' : 'No entries on this page'}</h2>
          <p>{log.total === 0 ? 'The editors have not had to step in yet.' : <Link href={moderationHref(1)}>Back to the latest entries</Link>}</p>
        </section>
      ) : (
        <>
          <p className="moderation__count">{plural(log.total, 'entry', 'entries')} in all</p>
          <ol className="moderation-log" aria-label="Moderation log">
            {log.entries.map((entry) => <Entry key={entry.id} entry={entry} />)}
          </ol>
        </>
      )}
      {log && log.total > MODERATION_PAGE_SIZE ? (
        <nav className="moderation__pages" aria-label="Pages of the log">
          {page > 1 ? <Link href={moderationHref(page - 1)} rel="prev">Newer entries</Link> : <span />}
          <span>Page {page} of {pages}</span>
          {page < pages ? <Link href={moderationHref(page + 1)} rel="next">Older entries</Link> : <span />}
        </nav>
      ) : null}
    </article>
  );
}

const LABELS: Record<ModerationEntry['action'], string> = {
  delete_post: 'Article removed',
  delete_comment: 'Comment removed',
  ban: 'Account banned',
  unban: 'Ban lifted',
  promote: 'Made an administrator',
  demote: 'No longer an administrator',
  registration: 'Registration changed',
  block: 'Fediverse block',
  unblock: 'Fediverse block lifted',
};

/** What a registration mode means, as the log says it. */
const REGISTRATION_TEXTS: Record<string, string> = {
  open: 'open to everyone',
  approval: 'by approval of an administrator',
  invite: 'by invitation only',
  closed: 'closed',
};

/** A date as the page's clock tells it: UTC (and saying so) until the reader's own zone is known. */
function When({ iso }: { iso: string }) {
  const { timeZone } = useClock();
  return <time dateTime={iso}>{humanDateTime(iso, timeZone)}{timeZone === 'UTC' ? ' UTC' : ''}</time>;
}

function Person({ name, fallback }: { name: string | null; fallback: string }) {
  return name === null ? <>{fallback}</> : <Link href={authorHref(name)} className="moderation-entry__name">{name}</Link>;
}

/** A blocked server or account of the fediverse, as the log names it. */
function blockedName(target: string | null): ReactNode {
  if (target === null) return 'a server of the fediverse';
  return <>{target.startsWith('@') ? 'the account' : 'the server'} <span className="moderation-entry__target">{target}</span></>;
}

function whatHappened(entry: ModerationEntry): ReactNode {
  const user = <Person name={entry.user} fallback="a deleted account" />;
  const title = entry.post_title === null ? 'an article'
    : entry.post_id !== null ? <>“<Link href={postHref({ id: entry.post_id })}>{entry.post_title}</Link>”</> : <>“{entry.post_title}”</>;
  switch (entry.action) {
    case 'delete_post': return <>removed the article {title} by {user}.</>;
    case 'delete_comment': return <>removed a comment by {user} on {title}.</>;
    case 'ban': return entry.ban_until ? <>banned {user} for a time.</> : <>banned {user} permanently.</>;
    case 'unban': return <>lifted the ban on {user}.</>;
    case 'promote': return <>made {user} an administrator.</>;
    case 'demote': return <>made {user} a regular member again.</>;
    case 'registration': return <>made registration {REGISTRATION_TEXTS[entry.reason ?? ''] ?? entry.reason}.</>;
    case 'block': return <>blocked {blockedName(entry.target)}: nothing it sends is taken, and nothing more is sent to it.</>;
    case 'unblock': return <>lifted the block on {blockedName(entry.target)}.</>;
  }
}

function Entry({ entry }: { entry: ModerationEntry }) {
  return (
    <li className="moderation-entry" data-action={entry.action}>
      <p className="moderation-entry__kicker">{LABELS[entry.action]}</p>
      <p className="moderation-entry__what">
        <Person name={entry.admin} fallback="An administrator" /> {whatHappened(entry)}
      </p>
      {/* On a line of its own: the date changes to the reader's zone once the page runs, and
          must not move the lines around it when it does. */}
      {entry.action === 'ban' && entry.ban_until ? (
        <p className="moderation-entry__until"><span className="moderation-entry__label">Until</span> <When iso={entry.ban_until} /></p>
      ) : null}
      {entry.reason && entry.action !== 'registration' ? <p className="moderation-entry__reason"><span className="moderation-entry__label">Reason:</span> {entry.reason}</p> : null}
      <p className="moderation-entry__when"><When iso={entry.created_at} /></p>
    </li>
  );
}
