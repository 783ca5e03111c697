// Admin, Posts tab: articles searchable by title or author, each deletable with a reason the
// author receives; 50 at a time with 'Load more'. Active articles by default, so the count
// agrees with the 'Active Posts' counter above; archived ones are one choice away.
import { useCallback, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../../api.ts';
import { excerpt, humanDate, oneDecimal, showingCount } from '../../format.ts';
import { usePagedList } from '../../hooks/usePagedList.ts';
import type { Post } from '../../types.ts';
import { LoadMore } from '../LoadMore.tsx';
import { Loading } from '../Loading.tsx';
import { postHref } from '../posts/PostBits.tsx';
import { DeletePostDialog } from './AdminDialogs.tsx';

const PAGE_SIZE = 50;
const STATUSES = [
  { value: 'active', label: 'Active', noun: 'active post' },
  { value: 'archived', label: 'Archived', noun: 'archived post' },
  { value: 'all', label: 'All posts', noun: 'post' },
] as const;
type Status = (typeof STATUSES)[number]['value'];

export function PostsTab({ onChanged }: { onChanged: () => void }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<Status>('active');
  const [deleting, setDeleting] = useState<Post | null>(null);

  const fetchPage = useCallback(async (skip: number, limit: number) => {
    const response = await api.admin.posts({ skip, limit, search: query, status });
    return { items: response.posts, total: response.total };
  }, [query, status]);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading posts'));
  const posts = list.items;
  const noun = STATUSES.find((s) => s.value === status)!.noun;

  function submit(event: FormEvent) {
    event.preventDefault();
    setQuery(search.trim());
  }

  function removed(post: Post) {
    list.remove(post.id);
    onChanged();
  }

  return (
    <section aria-label="Posts">
      <form className="admin-toolbar" role="search" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="admin-post-search">Search posts by title or author</label>
        <input id="admin-post-search" className="field__control admin-toolbar__search" type="search"
          placeholder="Search by title or author" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="button">Search</button>
        <label className="visually-hidden" htmlFor="admin-post-status">Status</label>
        <select id="admin-post-status" className="field__control admin-toolbar__select" value={status}
          onChange={(e) => setStatus(e.target.value as Status)}>
          {STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
      </form>
      {posts === null ? <Loading label="Loading posts…" /> : (
        <>
          <p className="admin-count" aria-live="polite">{showingCount(posts.length, list.total, noun)}{query ? ` matching “${query}”` : ''}</p>
          {posts.length === 0 ? <p className="empty-state">No posts found.</p> : (
            <ul className="admin-list">
              {posts.map((post) => (
                <li key={post.id} className="admin-row">
                  <div className="admin-row__main">
                    <p className="admin-row__title">
                      <Link href={postHref(post)}>{post.title}</Link>
                      {post.archived ? <span className="level-badge">Archived</span> : null}
                    </p>
                    <p className="admin-row__excerpt">{excerpt(post.content, 150)}</p>
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
              ))}
            </ul>
          )}
          <LoadMore list={list} what="posts" />
        </>
      )}
      {deleting ? <DeletePostDialog post={deleting} onClose={() => setDeleting(null)} onDeleted={removed} /> : null}
    </section>
  );
}
