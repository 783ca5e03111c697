// Admin, Posts tab: articles searchable by title or author, each deletable with a reason the
// author receives; 50 at a time with 'Load more'. Active articles by default, so the count
// agrees with the 'Active Posts' counter above; archived ones are one choice away.
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../../api.ts';
import { humanDate, oneDecimal, postExcerpt } from '../../format.ts';
import { usePagedList } from '../../hooks/usePagedList.ts';
import type { Post } from '../../types.ts';
import { postHref } from '../posts/PostBits.tsx';
import { DeletePostDialog } from './AdminDialogs.tsx';
import { AdminFilter, AdminList, AdminSearch } from './AdminList.tsx';

const PAGE_SIZE = 50;
const STATUSES = [
  { value: 'active', label: 'Active', noun: 'active post' },
  { value: 'archived', label: 'Archived', noun: 'archived post' },
  { value: 'all', label: 'All posts', noun: 'post' },
] as const;
type Status = (typeof STATUSES)[number]['value'];

export function PostsTab({ onChanged }: { onChanged: () => void }) {
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<Status>('active');
  const [deleting, setDeleting] = useState<Post | null>(null);

  const fetchPage = useCallback(async (skip: number, limit: number) => {
    const response = await api.admin.posts({ skip, limit, search: query, status });
    return { items: response.posts, total: response.total };
  }, [query, status]);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading posts'));
  const noun = STATUSES.find((s) => s.value === status)!.noun;

  function removed(post: Post) {
    list.remove(post.id);
    onChanged();
  }

  return (
    <section aria-label="Posts">
      <AdminSearch id="admin-post-search" label="Search posts by title or author" placeholder="Search by title or author" onSearch={setQuery}>
        <AdminFilter id="admin-post-status" label="Status" value={status} options={STATUSES} onChange={setStatus} />
      </AdminSearch>
      <AdminList list={list} loading="Loading posts…" noun={noun} query={query} empty="No posts found." what="posts">
        {(post) => (
          <li key={post.id} className="admin-row">
            <div className="admin-row__main">
              <p className="admin-row__title">
                <Link href={postHref(post)}>{post.title}</Link>
                {post.archived ? <span className="level-badge">Archived</span> : null}
              </p>
              <p className="admin-row__excerpt">{postExcerpt(post, 150)}</p>
              <dl className="admin-stats-line">
                <div><dt>Author</dt><dd>{post.author_username}</dd></div>
                <div><dt>Views</dt><dd>{post.visits}</dd></div>
                <div><dt>Ratings</dt><dd>{oneDecimal(post.average_rating)} ({post.ratings_count})</dd></div>
                <div><dt>Date</dt><dd><time dateTime={post.created_at}>{humanDate(post.created_at)}</time></dd></div>
              </dl>
            </div>
            <div className="admin-row__actions">
              <button type="button" className="button button--small button--danger" onClick={() => setDeleting(post)}
                aria-label={`Delete “${post.title}”`}>Delete</button>
            </div>
          </li>
        )}
      </AdminList>
      {deleting ? <DeletePostDialog post={deleting} onClose={() => setDeleting(null)} onDeleted={removed} /> : null}
    </section>
  );
}
