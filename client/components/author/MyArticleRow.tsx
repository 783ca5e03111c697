// One of my articles on /profile: picture, title link, excerpt, time, tags, figures and the
// edit, archive/unarchive and delete actions. A draft (DESIGN.md, Drafts) links to the editor,
// shows when it was saved and has no figures yet; its actions are edit, publish and delete.
import { Link } from 'wouter';
import { oneDecimal, plural, postExcerpt, relativeTime } from '../../format.ts';
import type { Post } from '../../types.ts';
import { draftHref, hashtagHref, postHref } from '../posts/PostBits.tsx';

export function MyArticleRow({ post, busy, onEdit, onArchive, onPublish, onDelete }: {
  post: Post;
  busy: boolean;
  onEdit: (post: Post) => void;
  onArchive: (post: Post) => void;
  onPublish: (post: Post) => void;
  onDelete: (post: Post) => void;
}) {
  const draft = post.status === 'draft';
  const href = draft ? draftHref(post) : postHref(post);
  const rowClass = draft ? 'my-article my-article--draft' : post.archived ? 'my-article my-article--archived' : 'my-article';
  return (
    <li className={rowClass}>
      <Link href={href} className="my-article__picture" tabIndex={-1} aria-hidden="true">
        {post.image
          ? <img src={post.image} alt="" loading="lazy" />
          : <span className="my-article__placeholder">B</span>}
      </Link>
      <div className="my-article__body">
        <h3 className="my-article__title">
          <Link href={href}>{post.title}</Link>
          {draft ? <span className="tag-archived">Draft</span> : null}
          {post.archived ? <span className="tag-archived">Archived</span> : null}
        </h3>
        <p className="my-article__excerpt">
          {post.content_html ? postExcerpt(post, 150) : <span className="my-article__muted">No text yet.</span>}
        </p>
        <p className="my-article__meta">
          {draft
            ? <span>Saved <time dateTime={post.updated_at}>{relativeTime(post.updated_at)}</time></span>
            : <time dateTime={post.created_at}>{relativeTime(post.created_at)}</time>}
          {post.hashtags.slice(0, 2).map((tag) => (
            <Link key={tag} className="my-article__tag" href={hashtagHref(tag)}>#{tag}</Link>
          ))}
        </p>
        {draft ? null : (
          <p className="my-article__figures">
            <span title="Average rating">★ {oneDecimal(post.average_rating)} <span className="my-article__muted">({post.ratings_count})</span></span>
            <span>{plural(post.visits, 'visit')}</span>
            <span>{plural(post.comments_count, 'comment')}</span>
          </p>
        )}
      </div>
      <div className="my-article__actions">
        {draft ? (
          <>
            <Link className="button button--small" href={href} aria-label={`Edit “${post.title}”`}>Edit</Link>
            <button type="button" className="button button--small button--primary" disabled={busy} onClick={() => onPublish(post)}
              aria-label={`Publish “${post.title}”`}>Publish</button>
          </>
        ) : (
          <>
            <button type="button" className="button button--small" disabled={busy} onClick={() => onEdit(post)}
              aria-label={`Edit “${post.title}”`}>Edit</button>
            <button type="button" className="button button--small" disabled={busy} onClick={() => onArchive(post)}
              aria-label={`${post.archived ? 'Unarchive' : 'Archive'} “${post.title}”`}>{post.archived ? 'Unarchive' : 'Archive'}</button>
          </>
        )}
        <button type="button" className="button button--small button--danger" disabled={busy} onClick={() => onDelete(post)}
          aria-label={`Delete “${post.title}”`}>Delete</button>
      </div>
    </li>
  );
}
