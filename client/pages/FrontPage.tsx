// / (SPEC §2, Home): the four loads (front page feed, latest 10, hashtags, ranks), then the hero,
// Top Ranking, Top Rated, Recent Posts, the rest of the front page feed and the topics strip.
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { useDocumentTitle } from '../components/PageHeading.tsx';
import { EXCERPT, feedExcerptLength, pickHero, pickRecent, pickTopRated, uniquePosts } from '../components/posts/frontpage.ts';
import { Byline, HashtagLinks, PostImage, PostStats, hashtagHref, kickerOf, postHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonLines, SkeletonStory } from '../components/posts/Skeleton.tsx';
import { StoryCard } from '../components/posts/StoryCard.tsx';
import { TopRankingList } from '../components/posts/TopRankingList.tsx';
import { discovery, posts } from '../endpoints.ts';
import { postExcerpt } from '../format.ts';
import { useRead } from '../hooks/useRead.ts';
import type { HashtagStat, Post } from '../types.ts';

interface HomeData {
  frontpage: Post[];
  latest: Post[];
  hashtags: HashtagStat[];
  ranked: Post[];
}

const FEED_COUNT = 6;
const TOPIC_COUNT = 12;

/** Home's four reads (the server renders Home with their answers: server/pages/). */
export const homeReads = () => ({
  frontpage: discovery.frontpage(), latest: posts.list({ limit: 10 }), hashtags: discovery.hashtags(), ranks: discovery.ranks(),
});

export function FrontPage() {
  useDocumentTitle('FrontPage');
  const reads = homeReads();
  const front = useRead(reads.frontpage);
  const latest = useRead(reads.latest);
  const hashtags = useRead(reads.hashtags);
  const ranks = useRead(reads.ranks);
  const failed = [front, latest, hashtags, ranks].some((read) => read.error !== undefined);
  const data: HomeData | null = front.value && latest.value && hashtags.value && ranks.value
    ? { frontpage: front.value.posts, latest: latest.value.posts, hashtags: hashtags.value, ranked: ranks.value.posts }
    : null;

  useEffect(() => {
    if (failed) toast.error('Error loading homepage');
  }, [failed]);

  return (
    <article className="page frontpage">
      {data ? <HomeEdition data={data} /> : failed ? <HomeUnavailable /> : <HomeSkeleton />}
    </article>
  );
}

function HomeEdition({ data }: { data: HomeData }) {
  const all = uniquePosts(data.frontpage, data.latest, data.ranked);
  const hero = pickHero(data.ranked, data.frontpage, data.latest);
  if (!hero) return <EmptyEdition />;
  const topRated = pickTopRated(all, hero);
  const recent = pickRecent(all, [hero, ...topRated]);
  const shown = new Set([hero, ...topRated, ...recent].map((p) => p.id));
  const feed = data.frontpage.filter((p) => !shown.has(p.id)).slice(0, FEED_COUNT);

  return (
    <>
      <div className="front-top">
        <Hero post={hero} />
        <TopRankingList posts={data.ranked} className="front-top__side" />
      </div>

      {topRated.length > 0 ? (
        <section className="front-section" aria-labelledby="top-rated-title">
          <h2 id="top-rated-title" className="section-title section-title--ruled">Top Rated</h2>
          <div className="story-row story-row--4">
            {topRated.map((post) => <StoryCard key={post.id} post={post} />)}
          </div>
        </section>
      ) : null}

      {recent.length > 0 ? (
        <section className="front-section" aria-labelledby="recent-title">
          <h2 id="recent-title" className="section-title section-title--ruled">Recent Posts</h2>
          <div className="story-row story-row--3">
            {recent.map((post) => <StoryCard key={post.id} post={post} />)}
          </div>
        </section>
      ) : null}

      {feed.length > 0 ? (
        <section className="front-section" aria-labelledby="feed-title">
          <h2 id="feed-title" className="section-title section-title--ruled">More from the FrontPage</h2>
          <div className="feed columns">
            {feed.map((post) => <FeedItem key={post.id} post={post} />)}
          </div>
        </section>
      ) : null}

      {data.hashtags.length > 0 ? (
        <nav className="front-section topics" aria-label="Topics">
          <h2 className="section-title section-title--ruled">Topics</h2>
          <ul className="chips">
            {data.hashtags.slice(0, TOPIC_COUNT).map((h) => (
              <li key={h.hashtag}><Link className="chip" href={hashtagHref(h.hashtag)}>#{h.hashtag} <span className="chip__count">{h.count}</span></Link></li>
            ))}
          </ul>
        </nav>
      ) : null}
    </>
  );
}

function Hero({ post }: { post: Post }) {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <p className="kicker">{kickerOf(post)}</p>
      <h2 id="hero-title" className="hero__title"><Link href={postHref(post)}>{post.title}</Link></h2>
      <Byline post={post} />
      {post.image ? <Link href={postHref(post)} tabIndex={-1} aria-hidden="true"><PostImage post={post} className="hero__image" first /></Link> : null}
      <p className="hero__excerpt">{postExcerpt(post, EXCERPT.hero)}</p>
      <HashtagLinks tags={post.hashtags} max={3} />
      <PostStats post={post} />
      <p><Link href={postHref(post)} className="read-more">Continue reading →</Link></p>
    </section>
  );
}

function FeedItem({ post }: { post: Post }) {
  const short = feedExcerptLength(post.title) !== EXCERPT.feed;
  return (
    <article className={short ? 'feed__item feed__item--short' : 'feed__item'}>
      <p className="kicker">{kickerOf(post)}</p>
      <h3 className="feed__title"><Link href={postHref(post)}>{post.title}</Link></h3>
      <p className="feed__excerpt">{postExcerpt(post, feedExcerptLength(post.title))}</p>
      <Byline post={post} />
      <HashtagLinks tags={post.hashtags} max={2} />
    </article>
  );
}

function EmptyEdition() {
  return (
    <section className="empty-edition">
      <p className="kicker">Special edition</p>
      <h2 className="empty-edition__title">The presses are waiting</h2>
      <p>Nothing has been published yet. The first story on this front page could be yours.</p>
      <p><Link href="/write" className="button button--primary">Write the first article</Link></p>
    </section>
  );
}

function HomeUnavailable() {
  return (
    <section className="empty-edition">
      <h2 className="empty-edition__title">Today's edition could not be delivered</h2>
      <p>Please try again in a moment.</p>
    </section>
  );
}

function HomeSkeleton() {
  return (
    <>
      <LoadingNote label="Loading the front page…" />
      <div className="front-top">
        <div className="hero"><SkeletonStory lines={5} /></div>
        <div className="front-top__side top-ranking">
          <SkeletonLines lines={3} /><SkeletonLines lines={3} /><SkeletonLines lines={3} />
        </div>
      </div>
      <div className="front-section story-row story-row--4">
        {[0, 1, 2, 3].map((i) => <SkeletonStory key={i} />)}
      </div>
    </>
  );
}
