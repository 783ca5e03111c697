// Small pieces every story on the reader pages uses: hashtag links, the numbers line, the byline,
// the picture (or a plain engraved-looking placeholder) and the kicker.
import { pictureAlt } from '../../../shared/articles.ts';
import { reactionsText } from '../../../shared/fediverse.ts';
import { profilePath } from '../../../shared/site.ts';
import { Link } from 'wouter';
import { compactCount, oneDecimal, plural, pluralNoun } from '../../format.ts';
import type { Post } from '../../types.ts';
import { TimeAgo } from '../TimeAgo.tsx';

export const postHref = (post: Pick<Post, 'id'>) => `/post/${post.id}`;
/** A draft opens in the editor: its article page is for readers, once published. */
export const draftHref = (post: Pick<Post, 'id'>) => `/write?draft=${post.id}`;
export const authorHref = profilePath;
export const hashtagHref = (tag: string) => `/ranks?hashtag=${encodeURIComponent(tag)}`;

/** The first hashtag, or 'General' (SPEC §2, Article). */
export function kickerOf(post: Pick<Post, 'hashtags'>): string {
  return post.hashtags[0] ?? 'General';
}

export function HashtagLinks({ tags, max }: { tags: string[]; max: number }) {
  const shown = tags.slice(0, max);
  if (shown.length === 0) return null;
  return (
    <ul className="tags" aria-label="Hashtags">
      {shown.map((tag) => (
        <li key={tag}><Link href={hashtagHref(tag)} className="tag">#{tag}</Link></li>
      ))}
    </ul>
  );
}

/** Rating (count), visits and comments, as a quiet line of small caps; with `reactions` (the article
 * page), its likes and boosts from the fediverse beside the rating, when it has any. */
export function PostStats({ post, className = '', reactions = false }: { post: Post; className?: string; reactions?: boolean }) {
  const fromFediverse = reactions ? reactionsText(post.likes_count ?? 0, post.boosts_count ?? 0) : '';
  return (
    <p className={`stats ${className}`.trim()}>
      <span title="Average rating"><span aria-hidden="true">★ </span>
        <span className="visually-hidden">Rating </span>{oneDecimal(post.average_rating)} ({post.ratings_count})</span>
      {fromFediverse ? <span className="stats__fediverse" title="From the fediverse">{fromFediverse}</span> : null}
      <span title="Visits">{compactCount(post.visits)} {pluralNoun(post.visits, 'visit')}</span>
      <span title="Comments">{plural(post.comments_count, 'comment')}</span>
    </p>
  );
}

export function Byline({ post }: { post: Post }) {
  return (
    <p className="byline">
      By <Link href={authorHref(post.author_username)} className="byline__author">{post.author_username}</Link>
      {' · '}<TimeAgo iso={post.created_at} />
      {' · '}{readingTime(post)}
    </p>
  );
}

/** 'N min read' (DESIGN.md, Writing). */
export function readingTime(post: Pick<Post, 'reading_minutes'>): string {
  return `${post.reading_minutes} min read`;
}

/** `first`: the page's main picture (the hero), fetched at once and ahead of the others, since it
 * is likely the largest thing on the first screen; the rest load as they near the screen. */
export function PostImage({ post, className = '', first = false }: { post: Post; className?: string; first?: boolean }) {
  if (post.image) {
    return (
      <img className={`post-image ${className}`.trim()} src={post.image} alt={pictureAlt(post)}
        loading={first ? 'eager' : 'lazy'} fetchPriority={first ? 'high' : undefined} />
    );
  }
  return (
    <div className={`post-image post-image--none ${className}`.trim()} aria-hidden="true">
      <span>{kickerOf(post).slice(0, 1).toUpperCase()}</span>
    </div>
  );
}
