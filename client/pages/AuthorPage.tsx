// /beatnik/{username} (SPEC §2, Public profile): the author's card, follow button or 'Edit profile',
// their fediverse handle while the site federates, followers/following lists (the followers from
// the fediverse after the local ones), and their articles with hashtag chips, search, sort and time
// filters.
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { remoteFollowersText } from '../../shared/fediverse.ts';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { ApiError, api } from '../api.ts';
import { Avatar } from '../components/Avatar.tsx';
import { SearchField, SelectField } from '../components/Field.tsx';
import { FollowListModal } from '../components/FollowListModal.tsx';
import { PageHeading, useDocumentTitle } from '../components/PageHeading.tsx';
import { ARTICLE_SORTS, type ArticleSort } from '../components/posts/articleSorts.ts';
import { HashtagLinks, PostImage, PostStats, postHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonLines, SkeletonStory } from '../components/posts/Skeleton.tsx';
import { tagsByUse } from '../components/reader/authorArticles.ts';
import { FediverseFollow } from '../components/reader/FediverseFollow.tsx';
import { FollowButton } from '../components/reader/FollowButton.tsx';
import { MojoLedger } from '../components/reader/MojoLedger.tsx';
import { MuteButton } from '../components/reader/MuteButton.tsx';
import { TIME_OPTIONS } from '../components/reader/pulseQuery.ts';
import { TimeAgo } from '../components/TimeAgo.tsx';
import { useClock } from '../clock.ts';
import { endpoints } from '../endpoints.ts';
import { monthYear, oneDecimal, postExcerpt } from '../format.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { useRead } from '../hooks/useRead.ts';
import { currentUser } from '../state/session.ts';
import type { PublicUser, TimePeriod } from '../types.ts';

export const NO_BIO = 'This beatnik has not written a bio yet.';
const LIST_EXCERPT = 150;

interface ArticleFilters {
  sort: ArticleSort;
  keyword: string;
  hashtag: string;
  time: TimePeriod;
}

const NO_FILTERS: ArticleFilters = { sort: 'newest', keyword: '', hashtag: '', time: '' };

/** The author page's first reads, in turn (the server renders it with their answers: server/pages/). */
export const authorRead = (username: string) => endpoints.users.byUsername(username);
export const authorArticlesRead = (userId: number, { sort, keyword, hashtag, time }: ArticleFilters = NO_FILTERS) =>
  endpoints.posts.byAuthor(userId, { sort_by: sort, search: keyword, hashtag, time_period: time });

export function AuthorPage({ username }: { username: string }) {
  const profile = useRead(authorRead(username));
  const missing = profile.error instanceof ApiError && profile.error.status === 404;
  const failed = profile.error !== undefined && !missing;

  useEffect(() => {
    if (failed) toast.error('Error loading profile');
  }, [failed]);

  if (missing) {
    return (
      <article className="page page--notice">
        <PageHeading title="User not found" kicker="Voices" />
        <p>No beatnik goes by “{username}”.</p>
        <p><Link href="/authors">Browse the Voices</Link></p>
      </article>
    );
  }
  if (failed) {
    return (
      <article className="page page--notice">
        <PageHeading title={username} kicker="Voices" />
        <p>This profile could not be loaded. Please try again.</p>
      </article>
    );
  }
  if (!profile.value) {
    return (
      <article className="page author">
        <LoadingNote label="Loading the profile…" />
        <div className="author__card"><SkeletonLines lines={4} /></div>
      </article>
    );
  }
  return <AuthorProfile user={profile.value} onChange={profile.update} />;
}

function AuthorProfile({ user, onChange }: { user: PublicUser; onChange(change: (user: PublicUser) => PublicUser): void }) {
  useSignals();
  useDocumentTitle(user.username);
  const { timeZone } = useClock();
  const viewer = currentUser.value;
  const isOwner = viewer?.id === user.id;
  const [list, setList] = useState<'followers' | 'following' | null>(null);
  const remoteFollowers = user.remote_followers_count ?? 0;
  // The server read the profile for a visitor: whether a signed-in reader follows comes on its own.
  const followUnknown = viewer !== null && !isOwner && user.is_following === undefined;
  useEffect(() => {
    if (!followUnknown) return;
    let live = true;
    api.users.one(user.id)
      .then((fresh) => { if (live) onChange((u) => ({ ...u, is_following: fresh.is_following ?? false })); })
      .catch(() => {}); // the button then stays away; following is still possible from a fresh page
    return () => { live = false; };
  }, [followUnknown, user.id, onChange]);

  return (
    <article className="page author">
      <header className="author__card">
        <Avatar username={user.username} avatar={user.avatar} size={112} />
        <div className="author__who">
          <p className="page-heading__kicker">Voices</p>
          <h1 className="author__name">{user.username}</h1>
          <p className="author__mojo"><span aria-hidden="true">★ </span>Mojo {oneDecimal(user.mojo)}</p>
          <p className={user.bio ? 'author__bio' : 'author__bio quiet'}>{user.bio || NO_BIO}</p>
          <div className="author__actions">
            {isOwner ? <Link href="/profile" className="button button--small">Edit profile</Link> : null}
            {viewer && !isOwner && !followUnknown ? (
              <FollowButton userId={user.id} username={user.username} following={user.is_following ?? false}
                onChange={(following) => onChange((u) => (following === (u.is_following ?? false) ? u
                  : { ...u, is_following: following, followers_count: Math.max(0, u.followers_count + (following ? 1 : -1)) }))} />
            ) : null}
            {viewer && !isOwner ? <MuteButton userId={user.id} username={user.username} /> : null}
          </div>
          <FediverseFollow username={user.username} />
        </div>
        <dl className="author__numbers">
          <div>
            <dt>Followers</dt>
            <dd><button type="button" className="link-button author__count" onClick={() => setList('followers')}
              aria-label={`Followers: ${user.followers_count}. Show the list`}>{user.followers_count}</button></dd>
            {remoteFollowers > 0 ? <dd className="author__remote">{remoteFollowersText(remoteFollowers)}</dd> : null}
          </div>
          <div>
            <dt>Following</dt>
            <dd><button type="button" className="link-button author__count" onClick={() => setList('following')}
              aria-label={`Following: ${user.following_count}. Show the list`}>{user.following_count}</button></dd>
          </div>
          <div><dt>Articles</dt><dd>{user.posts_count}</dd></div>
          <div><dt>Joined</dt><dd className="author__joined">{monthYear(user.created_at, timeZone)}</dd></div>
        </dl>
      </header>
      <MojoLedger key={user.id} user={user} />
      <AuthorArticles user={user} />
      {list ? (
        <FollowListModal userId={user.id} kind={list} remoteCount={remoteFollowers} onClose={() => setList(null)}
          title={list === 'followers' ? `Followers of ${user.username}` : `${user.username} follows`} />
      ) : null}
    </article>
  );
}

function AuthorArticles({ user }: { user: PublicUser }) {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<ArticleSort>('newest');
  const [time, setTime] = useState<TimePeriod>('');
  const [hashtag, setHashtag] = useState('');
  const keyword = useDebounced(search.trim(), 300);
  const filtered = Boolean(keyword || time || hashtag);
  const read = useRead(authorArticlesRead(user.id, { sort, keyword, hashtag, time }));
  const posts = read.value?.posts ?? (read.error === undefined ? null : []);
  // The chips are the hashtags of the unfiltered list, kept while a filter narrows it.
  const [tags, setTags] = useState<string[]>(() => (read.value && !filtered ? tagsByUse(read.value.posts) : []));

  useEffect(() => {
    if (read.value && !filtered) setTags(tagsByUse(read.value.posts));
  }, [read.value, filtered]);
  useEffect(() => {
    if (read.error !== undefined) toast.error('Error loading articles');
  }, [read.error]);

  return (
    <section className="author-articles" aria-labelledby="author-articles-title">
      <h2 id="author-articles-title" className="section-title section-title--ruled">Articles by {user.username}</h2>
      {tags.length > 0 ? (
        <ul className="chips" aria-label="Filter by hashtag">
          {tags.map((tag) => (
            <li key={tag}>
              <button type="button" className={tag === hashtag ? 'chip chip--on' : 'chip'} aria-pressed={tag === hashtag}
                onClick={() => setHashtag(tag === hashtag ? '' : tag)}>#{tag}</button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="author-articles__controls" role="search">
        <SearchField id="author-search" label="Search articles" placeholder="Title, text or hashtag" value={search} onChange={setSearch} />
        <SelectField id="author-sort" label="Sort by" value={sort} options={ARTICLE_SORTS} onChange={setSort} />
        <SelectField id="author-time" label="Published" value={time} options={TIME_OPTIONS} onChange={setTime} />
      </div>
      {posts === null ? (
        <div className="author-list"><LoadingNote label="Loading articles…" /><SkeletonStory /><SkeletonStory /></div>
      ) : posts.length === 0 ? (
        <section className="reader-empty">
          <h3 className="reader-empty__title">{filtered ? 'No articles found' : 'No articles yet'}</h3>
          {filtered ? <p>No article of {user.username} matches these filters.</p> : null}
        </section>
      ) : (
        <ul className="author-list" aria-label={`Articles by ${user.username}`}>
          {posts.map((post) => (
            <li key={post.id} className="author-list__row">
              <Link href={postHref(post)} tabIndex={-1} aria-hidden="true" className="author-list__picture"><PostImage post={post} /></Link>
              <div>
                <h3 className="author-list__title"><Link href={postHref(post)}>{post.title}</Link></h3>
                <p className="byline"><TimeAgo iso={post.created_at} /></p>
                <p className="author-list__excerpt">{postExcerpt(post, LIST_EXCERPT)}</p>
                <HashtagLinks tags={post.hashtags} max={2} />
                <PostStats post={post} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
