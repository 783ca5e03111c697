// /beatnik/{username} (SPEC §2, Public profile): the author's card, follow button or 'Edit profile',
// followers/following lists, and their articles with hashtag chips, search, sort and time filters.
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { ApiError, api } from '../api.ts';
import { Avatar } from '../components/Avatar.tsx';
import { SelectField } from '../components/Field.tsx';
import { FollowListModal } from '../components/FollowListModal.tsx';
import { PageHeading, useDocumentTitle } from '../components/PageHeading.tsx';
import { ARTICLE_SORTS, type ArticleSort } from '../components/posts/articleSorts.ts';
import { HashtagLinks, PostImage, PostStats, postHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonLines, SkeletonStory } from '../components/posts/Skeleton.tsx';
import { tagsByUse } from '../components/reader/authorArticles.ts';
import { FollowButton } from '../components/reader/FollowButton.tsx';
import { TIME_OPTIONS } from '../components/reader/pulseQuery.ts';
import { excerpt, monthYear, oneDecimal, relativeTime } from '../format.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { currentUser } from '../state/session.ts';
import type { Post, PublicUser, TimePeriod } from '../types.ts';

export const NO_BIO = 'This beatnik has not written a bio yet.';
const LIST_EXCERPT = 150;

type State = { status: 'loading' } | { status: 'missing' } | { status: 'failed' } | { status: 'ready'; user: PublicUser };

export function AuthorPage({ username }: { username: string }) {
  useSignals();
  const viewerId = currentUser.value?.id;
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    api.users.byUsername(username)
      .then((user) => { if (live) setState({ status: 'ready', user }); })
      .catch((error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 404) setState({ status: 'missing' });
        else { toast.error('Error loading profile'); setState({ status: 'failed' }); }
      });
    return () => { live = false; };
  }, [username, viewerId]);

  if (state.status === 'missing') {
    return (
      <article className="page page--notice">
        <PageHeading title="User not found" kicker="Voices" />
        <p>No beatnik goes by “{username}”.</p>
        <p><Link href="/authors">Browse the Voices</Link></p>
      </article>
    );
  }
  if (state.status === 'failed') {
    return (
      <article className="page page--notice">
        <PageHeading title={username} kicker="Voices" />
        <p>This profile could not be loaded. Please try again.</p>
      </article>
    );
  }
  if (state.status === 'loading') {
    return (
      <article className="page author">
        <LoadingNote label="Loading the profile…" />
        <div className="author__card"><SkeletonLines lines={4} /></div>
      </article>
    );
  }
  return <AuthorProfile user={state.user} onChange={(user) => setState({ status: 'ready', user })} />;
}

function AuthorProfile({ user, onChange }: { user: PublicUser; onChange(user: PublicUser): void }) {
  useSignals();
  useDocumentTitle(user.username);
  const viewer = currentUser.value;
  const isOwner = viewer?.id === user.id;
  const [list, setList] = useState<'followers' | 'following' | null>(null);

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
            {viewer && !isOwner ? (
              <FollowButton userId={user.id} username={user.username} following={user.is_following ?? false}
                onChange={(following) => {
                  if (following === (user.is_following ?? false)) return;
                  onChange({ ...user, is_following: following, followers_count: Math.max(0, user.followers_count + (following ? 1 : -1)) });
                }} />
            ) : null}
          </div>
        </div>
        <dl className="author__numbers">
          <div>
            <dt>Followers</dt>
            <dd><button type="button" className="link-button author__count" onClick={() => setList('followers')}
              aria-label={`Followers: ${user.followers_count}. Show the list`}>{user.followers_count}</button></dd>
          </div>
          <div>
            <dt>Following</dt>
            <dd><button type="button" className="link-button author__count" onClick={() => setList('following')}
              aria-label={`Following: ${user.following_count}. Show the list`}>{user.following_count}</button></dd>
          </div>
          <div><dt>Articles</dt><dd>{user.posts_count}</dd></div>
          <div><dt>Joined</dt><dd className="author__joined">{monthYear(user.created_at)}</dd></div>
        </dl>
      </header>
      <AuthorArticles user={user} />
      {list ? (
        <FollowListModal userId={user.id} kind={list} onClose={() => setList(null)}
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
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const keyword = useDebounced(search.trim(), 300);
  const filtered = Boolean(keyword || time || hashtag);

  useEffect(() => {
    let live = true;
    api.posts.byAuthor(user.id, { sort_by: sort, search: keyword, hashtag, time_period: time })
      .then((r) => {
        if (!live) return;
        setPosts(r.posts);
        if (!keyword && !time && !hashtag) setTags(tagsByUse(r.posts));
      })
      .catch(() => { if (live) { setPosts([]); toast.error('Error loading articles'); } });
    return () => { live = false; };
  }, [user.id, keyword, sort, time, hashtag]);

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
        <div className="field">
          <label className="field__label" htmlFor="author-search">Search articles</label>
          <input id="author-search" className="field__control" type="search" value={search}
            placeholder="Title, text or hashtag" onChange={(e) => setSearch(e.target.value)} />
        </div>
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
                <p className="byline"><time dateTime={post.created_at}>{relativeTime(post.created_at)}</time></p>
                <p className="author-list__excerpt">{excerpt(post.content, LIST_EXCERPT)}</p>
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
