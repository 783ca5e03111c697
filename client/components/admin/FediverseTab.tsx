// Admin, Fediverse tab (DESIGN.md, Moderation), shown while federation is on: the blocks and the
// form to add one (FediverseBlocks), then who follows the site's authors from other servers, the
// latest deliveries and the deliveries failing (retried from a minute, doubling to 12 hours, given
// up after three days). Each list shows 50 at a time, with 'Load more' of its own.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api } from '../../api.ts';
import { toastApiError } from '../../feedback.ts';
import { humanDateTime, plural } from '../../format.ts';
import type { AdminRemoteFollower, FederationDelivery, FederationFailure, FederationOverview } from '../../../server/api-types.ts';
import { Loading } from '../Loading.tsx';
import { FediverseBlocks } from './FediverseBlocks.tsx';

const PAGE_SIZE = 50;

type ListName = 'remote_followers' | 'deliveries' | 'failures';
const SKIPS: Record<ListName, 'followers_skip' | 'deliveries_skip' | 'failures_skip'> = {
  remote_followers: 'followers_skip', deliveries: 'deliveries_skip', failures: 'failures_skip',
};

export function FediverseTab() {
  const [overview, setOverview] = useState<FederationOverview | null>(null);
  const [loading, setLoading] = useState<ListName | null>(null);

  const load = useCallback(async () => {
    try {
      setOverview(await api.federation.overview({ limit: PAGE_SIZE }));
    } catch (error) {
      toastApiError(error, 'Error loading the fediverse');
    }
  }, []);
  useEffect(() => { void load(); }, [load]);

  async function loadMore(name: ListName) {
    if (!overview) return;
    setLoading(name);
    try {
      const next = await api.federation.overview({ [SKIPS[name]]: overview[name].length, limit: PAGE_SIZE });
      setOverview((current) => current && ({
        ...current,
        [name]: [...current[name], ...next[name]],
        [`${name}_total`]: next[`${name}_total`],
      }));
    } catch (error) {
      toastApiError(error, 'Error loading the fediverse');
    } finally {
      setLoading(null);
    }
  }

  const more = (name: ListName, what: string) => overview && overview[name].length < overview[`${name}_total`] ? (
    <p className="load-more">
      <button type="button" className="button button--small" disabled={loading === name}
        onClick={() => void loadMore(name)} aria-label={`Load more ${what}`}>{loading === name ? 'Loading…' : 'Load more'}</button>
    </p>
  ) : null;

  return (
    <div className="fediverse">
      <FediverseBlocks onChanged={() => void load()} />
      {overview === null ? <Loading label="Loading the fediverse…" /> : (
        <>
          <Part id="fediverse-followers" title="Followers elsewhere" more={more('remote_followers', 'remote followers')} count={shown(overview.remote_followers.length, overview.remote_followers_total, 'remote follower')}
            empty={overview.remote_followers.length === 0 ? 'Nobody on another server follows an author here yet.' : undefined}>
            {overview.remote_followers.map((follower) => <FollowerRow key={`${follower.handle} ${follower.follows}`} follower={follower} />)}
          </Part>
          <Part id="fediverse-deliveries" title="Latest deliveries" more={more('deliveries', 'deliveries')} count={shown(overview.deliveries.length, overview.deliveries_total, 'delivery', 'deliveries')}
            empty={overview.deliveries.length === 0 ? 'Nothing has been sent to another server yet.' : undefined}>
            {overview.deliveries.map((delivery) => <DeliveryRow key={delivery.id} delivery={delivery} />)}
          </Part>
          <Part id="fediverse-failures" title="Failing deliveries" more={more('failures', 'failing deliveries')} count={shown(overview.failures.length, overview.failures_total, 'failing delivery', 'failing deliveries')}
            empty={overview.failures.length === 0 ? 'No delivery is failing.' : undefined}>
            {overview.failures.map((failure) => <FailureRow key={failure.id} failure={failure} />)}
          </Part>
        </>
      )}
    </div>
  );
}

function Part({ id, title, count, empty, more, children }: {
  id: string; title: string; count: string; empty?: string; more: ReactNode; children: ReactNode;
}) {
  return (
    <section className="fediverse__part" aria-labelledby={id}>
      <h2 id={id} className="fediverse__title">{title}</h2>
      {empty ? <p className="empty-state">{empty}</p> : (
        <>
          <p className="admin-count" aria-live="polite">{count}</p>
          <ul className="admin-list">{children}</ul>
          {more}
        </>
      )}
    </section>
  );
}

/** 'Showing 50 of 73 deliveries', as the other tabs count (format.ts, showingCount). */
function shown(count: number, total: number, singular: string, pluralForm?: string): string {
  return `Showing ${count} of ${plural(total, singular, pluralForm)}`;
}

function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{humanDateTime(iso)}</time>;
}

function FollowerRow({ follower }: { follower: AdminRemoteFollower }) {
  return (
    <li className="admin-row">
      <div className="admin-row__main">
        <p className="admin-row__title">
          <a className="fediverse__address" href={follower.url} rel="nofollow noopener noreferrer">{follower.handle}</a>
          {follower.name && follower.name !== follower.handle ? <span className="admin-row__you">{follower.name}</span> : null}
        </p>
        <p className="admin-row__sub">follows {follower.follows} · since <When iso={follower.created_at} /></p>
      </div>
    </li>
  );
}

function DeliveryRow({ delivery }: { delivery: FederationDelivery }) {
  return (
    <li className="admin-row">
      <div className="admin-row__main">
        <p className="admin-row__title">
          {delivery.activity_type} to {delivery.domain}
          <span className={delivery.ok ? 'level-badge' : 'level-badge level-badge--banned'}>
            {delivery.ok ? 'Delivered' : delivery.error === 'blocked' ? 'Blocked' : 'Failed'}
          </span>
        </p>
        <p className="admin-row__sub fediverse__address">{delivery.inbox}</p>
        {delivery.error && delivery.error !== 'blocked' ? <p className="admin-row__excerpt fediverse__error">{delivery.error}</p> : null}
        <p className="admin-row__sub"><When iso={delivery.at} /></p>
      </div>
    </li>
  );
}

function FailureRow({ failure }: { failure: FederationFailure }) {
  const retrying = failure.state === 'pending';
  return (
    <li className="admin-row">
      <div className="admin-row__main">
        <p className="admin-row__title">
          {failure.activity_type ?? 'Activity'}
          <span className="level-badge level-badge--banned">{retrying ? 'Retrying' : 'Given up'}</span>
        </p>
        <p className="admin-row__sub fediverse__address">{failure.target}</p>
        {failure.last_error ? <p className="admin-row__excerpt fediverse__error">{failure.last_error}</p> : null}
        <dl className="admin-stats-line">
          <div><dt>Attempts</dt><dd>{failure.attempts}</dd></div>
          <div><dt>{retrying ? 'Next try' : 'Last try'}</dt><dd><When iso={failure.run_at} /></dd></div>
        </dl>
      </div>
    </li>
  );
}
