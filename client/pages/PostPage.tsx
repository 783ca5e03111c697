// /post/{id} (SPEC §2, Article): the article, its numbers and hashtags, the reader's tools (rate
// and follow, or the author's edit and delete), comments, and the Top Ranking side list.
import { pictureAlt } from '../../shared/articles.ts';
import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, lazy, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation } from 'wouter';
import { ApiError, api } from '../api.ts';
import { Avatar } from '../components/Avatar.tsx';
import { ConfirmDialog } from '../components/Modal.tsx';
import { PageHeading, useDocumentTitle } from '../components/PageHeading.tsx';
import { HashtagLinks, PostStats, authorHref, draftHref, kickerOf, readingTime } from '../components/posts/PostBits.tsx';
import { Prose } from '../components/Prose.tsx';
import { LoadingNote, SkeletonLines, SkeletonStory } from '../components/posts/Skeleton.tsx';
import { TopRankingList } from '../components/posts/TopRankingList.tsx';
import { CommentsSection } from '../components/reader/CommentsSection.tsx';
import { FollowButton } from '../components/reader/FollowButton.tsx';
import { MuteButton } from '../components/reader/MuteButton.tsx';
import { RateSection } from '../components/reader/RateSection.tsx';
import { RankNote, RatingHistogram } from '../components/reader/ScoreNotes.tsx';
import { TimeAgo } from '../components/TimeAgo.tsx';
import { discovery, posts } from '../endpoints.ts';
import { useRead } from '../hooks/useRead.ts';
import { currentUser } from '../state/session.ts';
import type { Post } from '../types.ts';

// The article form is for the author only: loaded when they press Edit (screens.ts); the report
// dialog likewise when a reader presses Report.
const EditArticleModal = lazy(() => import('../screens.ts').then((m) => ({ default: m.EditArticleModal })));
const ReportDialog = lazy(() => import('../screens.ts').then((m) => ({ default: m.ReportDialog })));

/** The article page's first reads (the server renders it with their answers: server/pages/); its
 * comments are read once the article is found (CommentsSection). */
export const articleReads = (id: string) => ({ article: posts.one(id), ranked: discovery.ranks({ limit: 4 }), rank: posts.rank(id) });

export function PostPage({ id }: { id: string }) {
  useSignals();
  const userId = currentUser.value?.id;
  const reads = articleReads(id);
  const article = useRead(reads.article);
  const ranked = useRead(reads.ranked);
  const missing = article.error instanceof ApiError && article.error.status === 404;
  const failed = article.error !== undefined && !missing;

  useEffect(() => {
    if (failed) toast.error('Error loading article');
  }, [failed]);
  // An archived article or a draft exists only for its author and admins, and the server renders
  // for a visitor: once the reader is known, ask again as them.
  const { reload } = article;
  useEffect(() => {
    if (missing && userId !== undefined) reload();
  }, [missing, userId, reload]);

  if (missing) return <ArticleNotFound />;
  if (failed) {
    return (
      <article className="page page--notice">
        <PageHeading title="Article unavailable" />
        <p>The article could not be loaded. Please try again.</p>
        <p><Link href="/">Back to the FrontPage</Link></p>
      </article>
    );
  }
  const post = article.value;
  const side = (ranked.value?.posts ?? []).filter((p) => p.id !== post?.id);
  return (
    <div className="article-layout">
      {post ? <ArticleView post={post} onChange={article.update} /> : <ArticleSkeleton />}
      <TopRankingList posts={side} className="article-layout__side" />
    </div>
  );
}

/** The histogram after the reader's rating moved from `before` to `after` stars (0: none). */
function moveRating(histogram: number[] | undefined, before: number, after: number): number[] | undefined {
  if (!histogram) return undefined;
  const moved = [...histogram];
  if (before > 0) moved[before - 1] = Math.max(0, (moved[before - 1] ?? 0) - 1);
  if (after > 0) moved[after - 1] = (moved[after - 1] ?? 0) + 1;
  return moved;
}

/**
 * Whether The Pulse lists the article, and so ranks it (published since the last refresh too: it
 * is placed as published). Only then is its rank asked for (the server's page embeds the answer
 * either way).
 */
function isRanked(post: Post): boolean {
  return post.status === 'published' && !post.archived;
}

/** 'Ranked #N on The Pulse', once its read answers; nothing when the article has no rank (404). */
function ArticleRank({ id }: { id: number }) {
  const rank = useRead(posts.rank(id));
  return rank.value ? <RankNote rank={rank.value} /> : null;
}

function ArticleView({ post, onChange }: { post: Post; onChange(change: (post: Post) => Post): void }) {
  useSignals();
  useDocumentTitle(post.title);
  const user = currentUser.value;
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [reporting, setReporting] = useState(false);
  const isAuthor = user?.id === post.author_id;
  // A draft (only its author and admins reach it) is written in the editor; nobody rates or comments it yet.
  const draft = post.status === 'draft';
  const rates = user !== null && !isAuthor && !draft;
  // The server read the article for a visitor: a signed-in reader's own rating comes on its own.
  const ratingUnknown = rates && post.user_rating === undefined;
  useEffect(() => {
    if (!ratingUnknown) return;
    let live = true;
    api.ratings.mine(post.id)
      .then(({ user_rating }) => { if (live) onChange((p) => ({ ...p, user_rating })); })
      .catch(() => {}); // the form then stays away; rating is still possible from a fresh page
    return () => { live = false; };
  }, [ratingUnknown, post.id, onChange]);

  async function deleteArticle() {
    setDeleting(true);
    try {
      await api.posts.remove(post.id);
      toast.success('Article deleted successfully');
      setConfirming(false);
      navigate('/profile');
    } catch {
      toast.error('Error deleting article');
      setDeleting(false);
    }
  }

  return (
    <article className="article">
      <header className="article__head">
        <p className="kicker">{kickerOf(post)}</p>
        <h1 className="article__title">{post.title}</h1>
        <div className="article__byline">
          <Avatar username={post.author_username} avatar={post.author_avatar} size={36} />
          <p className="byline">
            By <Link href={authorHref(post.author_username)} className="byline__author">{post.author_username}</Link>
            {' · '}<TimeAgo iso={post.created_at} />
            {' · '}{readingTime(post)}
          </p>
          {user && !isAuthor && !draft ? <AuthorFollow authorId={post.author_id} username={post.author_username} /> : null}
          {user && !isAuthor && !draft ? <MuteButton userId={post.author_id} username={post.author_username} /> : null}
        </div>
        <PostStats post={post} className="article__stats" reactions />
      </header>
      {isRanked(post) ? <ArticleRank id={post.id} /> : null}
      {post.image ? (
        <figure className="article__figure">
          <img src={post.image} alt={pictureAlt(post)} className="article__image" fetchPriority="high" />
        </figure>
      ) : null}
      <Prose className="article__content" html={post.content_html} />
      <HashtagLinks tags={post.hashtags} max={3} />
      {post.rating_histogram && !draft ? <RatingHistogram histogram={post.rating_histogram} /> : null}
      {user && !isAuthor ? (
        <p className="article__report">
          <button type="button" className="link-button" onClick={() => setReporting(true)}>Report this article</button>
        </p>
      ) : null}

      {draft ? (
        <section className="author-tools" aria-label="Draft">
          <p className="author-tools__note">A draft: only its author and the admins can read it until it is published.</p>
          {isAuthor ? (
            <div className="author-tools__buttons">
              <Link className="button button--small" href={draftHref(post)}>Open in the editor</Link>
            </div>
          ) : null}
        </section>
      ) : isAuthor ? (
        <section className="author-tools" aria-label="Your article">
          <p className="author-tools__note">You cannot rate your own articles.</p>
          <div className="author-tools__buttons">
            <button type="button" className="button button--small" onClick={() => setEditing(true)}>Edit article</button>
            <button type="button" className="button button--small button--danger" onClick={() => setConfirming(true)}>Delete article</button>
          </div>
        </section>
      ) : null}
      {rates && !ratingUnknown ? (
        <RateSection key={`${post.id}-${post.user_rating ?? 0}`} post={post} onRated={(rated) => onChange((before) => ({
          ...rated, rating_histogram: moveRating(before.rating_histogram, before.user_rating ?? 0, rated.user_rating ?? 0),
        }))} />
      ) : null}

      {draft ? null : (
        <CommentsSection postId={post.id}
          onCountChange={(delta) => onChange((p) => ({ ...p, comments_count: Math.max(0, p.comments_count + delta) }))} />
      )}

      {editing ? (
        <Suspense fallback={null}><EditArticleModal post={post} onClose={() => setEditing(false)} onSaved={(saved) => onChange(() => saved)} /></Suspense>
      ) : null}
      {reporting ? (
        <Suspense fallback={null}><ReportDialog type="post" id={post.id} onClose={() => setReporting(false)} /></Suspense>
      ) : null}
      {confirming ? (
        <ConfirmDialog title="Delete article" confirmLabel="Delete" busy={deleting}
          message={<>Are you sure you want to delete “{post.title}”? Its ratings and comments go with it. This cannot be undone.</>}
          onConfirm={() => void deleteArticle()} onCancel={() => setConfirming(false)} />
      ) : null}
    </article>
  );
}

/** The follow state comes from the author's profile (is_following for a signed-in reader). */
function AuthorFollow({ authorId, username }: { authorId: number; username: string }) {
  const [following, setFollowing] = useState<boolean | null>(null);
  useEffect(() => {
    api.users.one(authorId).then((u) => setFollowing(u.is_following ?? false)).catch(() => setFollowing(false));
  }, [authorId]);
  if (following === null) return null;
  return <FollowButton userId={authorId} username={username} following={following} onChange={setFollowing} />;
}

function ArticleNotFound() {
  return (
    <article className="page page--notice">
      <PageHeading title="Article not found" kicker="Stop the presses" />
      <p>The article you're looking for doesn't exist or has been deleted.</p>
      <p><Link href="/">Back to the FrontPage</Link></p>
    </article>
  );
}

function ArticleSkeleton() {
  return (
    <div className="article">
      <LoadingNote label="Loading the article…" />
      <SkeletonLines lines={2} />
      <SkeletonStory lines={8} />
    </div>
  );
}
