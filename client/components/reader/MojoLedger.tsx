// 'How this mojo was earned' on an author's page (DESIGN.md, Transparency): the latest events of
// their mojo ledger, each with its cause in words, its delta, when, the article and who, and mojo
// over time as a line. The first page comes with the page the server rendered.
import { useState } from 'react';
import { Link } from 'wouter';
import { formatMojoDelta, mojoCauseWords } from '../../../shared/mojo.ts';
import { api } from '../../api.ts';
import { endpoints } from '../../endpoints.ts';
import { useRead } from '../../hooks/useRead.ts';
import type { MojoEvent, PublicUser } from '../../types.ts';
import { authorHref, postHref } from '../posts/PostBits.tsx';
import { TimeAgo } from '../TimeAgo.tsx';
import { MojoChart } from './MojoChart.tsx';

/** Events shown at first, and added by each 'More'. */
const SHOWN = 10;

/** The ledger's read the page makes (the server embeds its answer: server/pages/pages.table.ts). */
export const mojoLedgerRead = (userId: number) => endpoints.users.mojo(userId, { limit: 50 });

export function MojoLedger({ user }: { user: Pick<PublicUser, 'id' | 'username'> }) {
  const read = useRead(mojoLedgerRead(user.id));
  const [more, setMore] = useState<MojoEvent[]>([]);
  const [shown, setShown] = useState(SHOWN);
  const [loading, setLoading] = useState(false);
  if (!read.value) {
    return read.error === undefined ? null : (
      <section className="mojo-ledger" aria-labelledby="mojo-ledger-title">
        <h2 id="mojo-ledger-title" className="section-title section-title--ruled">How this mojo was earned</h2>
        <p className="quiet">The mojo ledger could not be loaded.</p>
      </section>
    );
  }
  const { total } = read.value;
  const events = [...read.value.events, ...more];
  const hasMore = shown < total;

  async function showMore() {
    if (shown + SHOWN > events.length && events.length < total) {
      setLoading(true);
      try {
        const page = await api.users.mojo(user.id, { skip: events.length, limit: 50 });
        const seen = new Set(events.map((e) => e.id));
        setMore((m) => [...m, ...page.events.filter((e) => !seen.has(e.id))]);
      } catch {
        // The button stays: another try may work.
        setLoading(false);
        return;
      }
      setLoading(false);
    }
    setShown((n) => n + SHOWN);
  }

  return (
    <section className="mojo-ledger" aria-labelledby="mojo-ledger-title">
      <h2 id="mojo-ledger-title" className="section-title section-title--ruled">How this mojo was earned</h2>
      <MojoChart events={events} />
      {events.length === 0 ? <p className="quiet">Nothing yet: mojo comes from readers, ratings, comments and followers.</p> : (
        <ol className="mojo-ledger__events" aria-label={`Mojo events of ${user.username}`}>
          {events.slice(0, shown).map((e) => (
            <li key={e.id} className="mojo-ledger__event" data-cause={e.cause}>
              <span className="mojo-ledger__delta">{formatMojoDelta(e.delta)}</span>
              <span className="mojo-ledger__what">
                {mojoCauseWords(e.cause, e.delta)}
                {e.actor_username ? <> by <Link href={authorHref(e.actor_username)}>{e.actor_username}</Link></> : null}
                {e.post_title && e.post_id !== null ? <> on <Link href={postHref({ id: e.post_id })}>{e.post_title}</Link></> : null}
              </span>
              <TimeAgo iso={e.at} className="mojo-ledger__when" />
            </li>
          ))}
        </ol>
      )}
      {hasMore ? (
        <p className="load-more">
          <button type="button" className="button button--small" disabled={loading} onClick={() => void showMore()}
            aria-label="More mojo events">{loading ? 'Loading…' : 'More'}</button>
        </p>
      ) : null}
    </section>
  );
}
