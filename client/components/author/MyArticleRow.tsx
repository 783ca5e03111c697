// One of my articles on /profile: picture, title link, excerpt, time, tags, figures and the
// edit, archive/unarchive and delete actions.
import { Link } from 'wouter';
import { excerpt, oneDecimal, plural, relativeTime } from '../../format.ts';
import type { Post } from '../../types.ts';
import { hashtagHref, postHref } from '../posts/PostBits.tsx';

export function MyArticleRow({ post, busy, onEdit, onArchive, onDelete }: {
  post: Post;
  busy: boolean;
  onEdit: (post: Post) => void;
  onArchive: (post: Post) => void;
  onDelete: (post: Post) => void;
}) {
  return (
    <li className={post.archived ? 'my-article my-article--archived' : 'my-article'}>
      <Link href={postHref(post)} className="my-article__picture" tabIndex={-1} aria-hidden="true">
        {post.image
          ? <img src={post.image} alt="" loading="lazy" />
          : <span className="my-article__placeholder">B</span>}
      </Link>
      <div className="my-article__body">
        <h3 className="my-article__title">
          <Link href={postHref(post)}>{post.title}</Link>
          {post.archived ? <span className="tag-archived">Archived</span> : null}
        </h3>
        <p className="my-article__excerpt">{excerpt(post.content, 150)}</p>
        <p className="my-article__meta">
          <time dateTime={post.created_at}>{relativeTime(post.created_at)}</time>
          {post.hashtags.slice(0, 2).map((tag) => (
            <Link key={tag} className="my-article__tag" href={hashtagHref(tag)}>#{tag}</Link>
          ))}
        </p>
        <p className="my-article__figures">
          <span title="Average rating">★ {oneDecimal(post.average_rating)} <span className="my-article__muted">({post.ratings_count})</span></span>
          <span>{plural(post.visits, 'visit')}</span>
          <span>{plural(post.comments_count, 'comment')}</span>
        </p>
      </div>
      <div className="my-article__actions">
        <button type="button" className="button button--small" disabled={busy} onClick={() => onEdit(post)}
          aria-label={`Edit “${post.title}”`}>Edit</button>
        <button type="button" className="button button--small" disabled={busy} onClick={() => onArchive(post)}
          aria-label={`${post.archived ? 'Unarchive' : 'Archive'} “${post.title}”`}>{post.archived ? 'Unarchive' : 'Archive'}</button>
        <button type="button" className="button button--small button--danger" disabled={busy} onClick={() => onDelete(post)}
          aria-label={`Delete “${post.title}”`}>Delete</button>
      </div>
    </li>
  );
}
