// Admin, Posts tab: every article (archived too), searchable by title or author, each deletable
// with a reason the author receives.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../../api.ts';
import { excerpt, oneDecimal } from '../../format.ts';
import type { Post, PostList } from '../../types.ts';
import { Loading } from '../Loading.tsx';
import { postHref } from '../posts/PostBits.tsx';
import { DeletePostDialog } from './AdminDialogs.tsx';

export function PostsTab({ onChanged }: { onChanged: () => void }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [total, setTotal] = useState(0);
  const [deleting, setDeleting] = useState<Post | null>(null);

  const load = useCallback(async () => {
    try {
      const response = await api.get<PostList>('/api/admin/posts', { skip: 0, limit: 50, search: query });
      setPosts(response.posts);
      setTotal(response.total);
    } catch {
      setPosts((current) => current ?? []);
      toast.error('Error loading posts');
    }
  }, [query]);

  useEffect(() => { void load(); }, [load]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setQuery(search.trim());
  }

  function removed(post: Post) {
    setPosts((current) => current?.filter((p) => p.id !== post.id) ?? null);
    setTotal((t) => Math.max(0, t - 1));
    onChanged();
  }

  return (
    <section aria-label="Posts">
      <form className="admin-toolbar" role="search" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="admin-post-search">Search posts by title or author</label>
        <input id="admin-post-search" className="field__control admin-toolbar__search" type="search"
          placeholder="Search by title or author" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="button">Search</button>
      </form>
      {posts === null ? <Loading label="Loading posts…" /> : (
        <>
          <p className="admin-count">{total === 1 ? '1 post' : `${total} posts`}{query ? ` matching “${query}”` : ''}</p>
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
                      <div><dt>Date</dt><dd><time dateTime={post.created_at}>{new Date(post.created_at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}</time></dd></div>
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
        </>
      )}
      {deleting ? <DeletePostDialog post={deleting} onClose={() => setDeleting(null)} onDeleted={removed} /> : null}
    </section>
  );
}
