// /ranks (SPEC §2, The Pulse): the ranked list with popular hashtags, a hashtag search, the sort
// and time selectors; the filters live in the URL so a ranking can be shared and reloaded.
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useSearch } from 'wouter';
import { SelectField } from '../components/Field.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { HashtagLinks, PostImage, PostStats, authorHref, postHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonStory } from '../components/posts/Skeleton.tsx';
import { HashtagMuteButton } from '../components/reader/HashtagMuteButton.tsx';
import { HashtagSearch } from '../components/reader/HashtagSearch.tsx';
import {
  CRITERIA_OPTIONS, TIME_OPTIONS, parsePulseQuery, pulseSearch, type PulseFilters,
} from '../components/reader/pulseQuery.ts';
import { discovery } from '../endpoints.ts';
import { postExcerpt } from '../format.ts';
import { TimeAgo } from '../components/TimeAgo.tsx';
import { useRead } from '../hooks/useRead.ts';

const POPULAR_COUNT = 6;
const RANK_EXCERPT = 150;

/** The Pulse's first reads for its address's filters (the server renders it with their answers:
 * server/pages/). */
export const pulseReads = ({ hashtag, time_period, criteria }: PulseFilters) => ({
  popular: discovery.hashtags({ limit: POPULAR_COUNT }),
  ranked: discovery.ranks({ hashtag, time_period, criteria: criteria === 'ranking' ? undefined : criteria }),
});

export function PulsePage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = parsePulseQuery(search);
  const { hashtag, time_period, criteria } = filters;
  const reads = pulseReads(filters);
  const ranked = useRead(reads.ranked);
  const popularRead = useRead(reads.popular);
  const posts = ranked.value?.posts ?? (ranked.error === undefined ? null : []);
  /** null while loading: the row keeps its place meanwhile, so the controls below it never move. */
  const popular = popularRead.value?.slice(0, POPULAR_COUNT) ?? (popularRead.error === undefined ? null : []);

  const setFilters = (next: Partial<PulseFilters>) =>
    navigate(`/ranks${pulseSearch({ ...filters, ...next })}`, { replace: true });

  useEffect(() => {
    if (ranked.error !== undefined) toast.error('Error loading rankings');
  }, [ranked.error]);

  return (
    <article className="page pulse">
      <PageHeading title="The Pulse" kicker="Rankings">
        <p className="page-heading__lede">
          Articles are ranked by their visits, their ratings and the activity in their comments.
          Rankings refresh every 24 hours.
        </p>
        {ranked.value?.refreshed_at ? (
          <p className="pulse__refresh">
            Last refreshed <TimeAgo iso={ranked.value.refreshed_at} />
            {ranked.value.next_refresh_at ? <>; next refresh <TimeAgo iso={ranked.value.next_refresh_at} /></> : null}.
          </p>
        ) : null}
      </PageHeading>

      <div className="pulse__filters">
        {popular === null || popular.length > 0 ? (
          <nav className="pulse__popular" aria-label="Popular hashtags" aria-busy={popular === null}>
            <span className="field__label">Popular</span>
            <ul className="chips">
              {(popular ?? []).map((h) => (
                <li key={h.hashtag}>
                  <button type="button" className={h.hashtag === hashtag ? 'chip chip--on' : 'chip'} aria-pressed={h.hashtag === hashtag}
                    onClick={() => setFilters({ hashtag: h.hashtag === hashtag ? '' : h.hashtag })}>
                    #{h.hashtag} <span className="chip__count">{h.count}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="pulse__controls">
          <HashtagSearch value={hashtag} onSearch={(tag) => setFilters({ hashtag: tag })} />
          <SelectField id="pulse-criteria" label="Sort by" value={criteria} options={CRITERIA_OPTIONS}
            onChange={(value) => setFilters({ criteria: value })} />
          <SelectField id="pulse-time" label="Time period" value={time_period} options={TIME_OPTIONS}
            onChange={(value) => setFilters({ time_period: value })} />
        </div>
        {hashtag ? (
          <p className="pulse__active">
            Showing hashtags containing “{hashtag}”.{' '}
            <button type="button" className="link-button" onClick={() => setFilters({ hashtag: '' })}>Clear hashtag</button>
            {' '}<HashtagMuteButton tag={hashtag} />
          </p>
        ) : null}
      </div>

      {posts === null ? (
        <div className="rank-list"><LoadingNote label="Loading rankings…" />{[0, 1, 2].map((i) => <SkeletonStory key={i} />)}</div>
      ) : posts.length === 0 ? (
        <section className="reader-empty">
          <h2 className="reader-empty__title">No articles found</h2>
          <p>{hashtag ? `No articles found with hashtags containing "${hashtag}"` : 'No articles have been published yet'}</p>
        </section>
      ) : (
        <ol className="rank-list" aria-label="Ranked articles">
          {posts.map((post, index) => (
            <li key={post.id} className="rank-row">
              <span className="rank-row__number">#{index + 1}</span>
              <Link href={postHref(post)} tabIndex={-1} aria-hidden="true" className="rank-row__picture"><PostImage post={post} /></Link>
              <div className="rank-row__text">
                <h2 className="rank-row__title"><Link href={postHref(post)}>{post.title}</Link></h2>
                <p className="rank-row__excerpt">{postExcerpt(post, RANK_EXCERPT)}</p>
                <p className="byline">By <Link href={authorHref(post.author_username)}>{post.author_username}</Link></p>
                <HashtagLinks tags={post.hashtags} max={2} />
                <PostStats post={post} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
