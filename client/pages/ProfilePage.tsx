// /profile (SPEC §2, My profile): the signed-in user's masthead, stats and articles, with search,
// sort, the archived and drafts views (DESIGN.md, Drafts) and each row's actions: edit, archive
// and delete an article; edit, publish and delete a draft. Signed-in only.
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../api.ts';
import { EditArticleModal } from '../components/article-form/EditArticleModal.tsx';
import { resultCountText } from '../components/author/authorStats.ts';
import { MyArticleRow } from '../components/author/MyArticleRow.tsx';
import { ProfileHeader } from '../components/author/ProfileHeader.tsx';
import { StatsDashboard } from '../components/author/StatsDashboard.tsx';
import { FollowListModal } from '../components/FollowListModal.tsx';
import { Loading } from '../components/Loading.tsx';
import { ConfirmDialog } from '../components/Modal.tsx';
import { PageHeading, useDocumentTitle } from '../components/PageHeading.tsx';
import { ARTICLE_SORTS, type ArticleSort } from '../components/posts/articleSorts.ts';
import { EditProfileModal } from '../components/profile/EditProfileModal.tsx';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { currentUser, loadCurrentUser, updateCurrentUser } from '../state/session.ts';
import type { MyStats, Post, PrivateUser } from '../types.ts';

const PAGE = 100;

export function ProfilePage() {
  useSignals();
  useDocumentTitle('My profile');
  const user = currentUser.value;
  if (!user) {
    return (
      <article className="page page--notice">
        <PageHeading title="Access restricted" />
        <p>Your profile is only shown to you, once you are signed in.</p>
        <p><Link className="button button--primary" href="/login">Sign in</Link></p>
      </article>
    );
  }
  return <MyProfile user={user} />;
}

type View = 'active' | 'archived' | 'drafts';

type Dialog =
  | { kind: 'edit-profile' }
  | { kind: 'followers' | 'following' }
  | { kind: 'edit-article'; post: Post }
  | { kind: 'delete'; post: Post }
  | null;

function MyProfile({ user }: { user: PrivateUser }) {
  const [view, setView] = useState<View>('active');
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [sort, setSort] = useState<ArticleSort>('newest');
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [total, setTotal] = useState(0);
  const [stats, setStats] = useState<MyStats | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const userId = user.id;

  const refreshUser = useCallback(async () => {
    try {
      await loadCurrentUser();
    } catch {
      toast.error('Error loading profile');
    }
  }, []);

  // One call, counted by the server from the counters it keeps (GET /api/users/me/stats).
  const refreshStats = useCallback(async () => {
    try {
      setStats(await api.users.myStats());
    } catch {
      setStats(null); // the list's own error toast covers this
    }
  }, []);

  const loadList = useCallback(async (signal?: AbortSignal) => {
    try {
      const page = await api.posts.byAuthor(userId, {
        skip: 0, limit: PAGE, sort_by: sort, search: query,
        archived: view === 'archived' ? true : undefined, status: view === 'drafts' ? 'draft' : undefined,
      }, signal);
      setPosts(page.posts);
      setTotal(page.total);
    } catch {
      if (signal?.aborted) return;
      setPosts((current) => current ?? []);
      toast.error('Error loading your articles');
    }
  }, [userId, sort, query, view]);

  useEffect(() => { void refreshUser(); }, [refreshUser]);
  useEffect(() => { void refreshStats(); }, [refreshStats]);
  useEffect(() => {
    const controller = new AbortController();
    void loadList(controller.signal);
    return () => controller.abort();
  }, [loadList]);

  function afterChange() {
    void refreshStats();
    void refreshUser();
  }

  /** The article left this view: deleted, or moved to another by (un)archiving or publishing. */
  function dropRow(post: Post) {
    setPosts((current) => current?.filter((p) => p.id !== post.id) ?? null);
    setTotal((t) => Math.max(0, t - 1));
    afterChange();
  }

  async function toggleArchive(post: Post) {
    setBusyId(post.id);
    try {
      const response = await api.posts.toggleArchive(post.id);
      toastSuccess(response.message, 'Error archiving article');
      dropRow(post);
    } catch (error) {
      toastApiError(error, 'Error archiving article');
    } finally {
      setBusyId(null);
    }
  }

  async function publish(post: Post) {
    setBusyId(post.id);
    try {
      await api.posts.publish(post.id);
      toastSuccess('Article published successfully!', 'Error publishing article');
      dropRow(post);
    } catch (error) {
      toastApiError(error, 'Error publishing article');
    } finally {
      setBusyId(null);
    }
  }

  async function remove(post: Post) {
    setBusyId(post.id);
    try {
      await api.posts.remove(post.id);
      toast.success(post.status === 'draft' ? 'Draft deleted' : 'Article deleted successfully');
      setDialog(null);
      dropRow(post);
    } catch {
      toast.error('Error deleting article');
    } finally {
      setBusyId(null);
    }
  }

  function show(next: View) {
    setPosts(null);
    setView(next);
  }

  function saved(updated: Post) {
    setPosts((current) => current?.map((p) => (p.id === updated.id ? updated : p)) ?? null);
    void refreshStats();
  }

  return (
    <article className="page profile-page">
      <ProfileHeader user={user} onEdit={() => setDialog({ kind: 'edit-profile' })}
        onShowList={(kind) => setDialog({ kind })} />
      <StatsDashboard stats={stats} />

      <section className="my-articles" aria-labelledby="my-articles-title">
        <div className="my-articles__head">
          <h2 id="my-articles-title" className="author-title">
            {TITLES[view]} <span className="author-title__count">({total})</span>
          </h2>
          <div className="my-articles__buttons">
            <Link className="button button--primary button--small" href="/write">Write a new article</Link>
            <button type="button" className="button button--small" aria-pressed={view === 'archived'}
              onClick={() => show(view === 'active' ? 'archived' : 'active')}>
              {view === 'active' ? 'Show archived articles' : 'Show active articles'}
            </button>
            <button type="button" className="button button--small" aria-pressed={view === 'drafts'}
              onClick={() => show(view === 'drafts' ? 'active' : 'drafts')}>
              Drafts{stats ? ` (${stats.draft_posts})` : ''}
            </button>
          </div>
        </div>
        <div className="my-articles__tools" role="search">
          <label className="visually-hidden" htmlFor="my-articles-search">Search your articles by title, content or hashtags</label>
          <input id="my-articles-search" className="field__control" type="search" value={search}
            placeholder="Search title, content or hashtags" onChange={(e) => setSearch(e.target.value)} />
          <label className="visually-hidden" htmlFor="my-articles-sort">Sort articles</label>
          <select id="my-articles-sort" className="field__control my-articles__sort" value={sort}
            onChange={(e) => setSort(e.target.value as ArticleSort)}>
            {ARTICLE_SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </div>
        <p className="my-articles__count" aria-live="polite">{posts ? resultCountText(total, query, view === 'drafts' ? 'draft' : 'article') : ''}</p>
        {posts === null ? <Loading label="Loading your articles…" /> : null}
        {posts && posts.length === 0 ? <EmptyArticles view={view} searching={query !== ''} /> : null}
        {posts && posts.length > 0 ? (
          <ul className="my-articles__list">
            {posts.map((post) => (
              <MyArticleRow key={post.id} post={post} busy={busyId === post.id}
                onEdit={(p) => setDialog({ kind: 'edit-article', post: p })}
                onArchive={(p) => void toggleArchive(p)}
                onPublish={(p) => void publish(p)}
                onDelete={(p) => setDialog({ kind: 'delete', post: p })} />
            ))}
          </ul>
        ) : null}
      </section>

      {dialog?.kind === 'edit-profile' ? <EditProfileModal user={user} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'followers' || dialog?.kind === 'following' ? (
        <FollowListModal userId={user.id} kind={dialog.kind} title={dialog.kind === 'followers' ? 'Followers' : 'Following'}
          onClose={() => setDialog(null)} canUnfollow={dialog.kind === 'following'} remoteCount={user.remote_followers_count ?? 0}
          onUnfollowed={() => {
            const me = currentUser.value;
            if (me) updateCurrentUser({ ...me, following_count: Math.max(0, me.following_count - 1) });
          }} />
      ) : null}
      {dialog?.kind === 'edit-article' ? (
        <EditArticleModal post={dialog.post} onClose={() => setDialog(null)} onSaved={saved} />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog title={dialog.post.status === 'draft' ? 'Delete draft' : 'Delete article'} confirmLabel="Delete"
          busy={busyId === dialog.post.id}
          message={dialog.post.status === 'draft'
            ? <>Delete the draft “{dialog.post.title}”? This cannot be undone.</>
            : <>Delete “{dialog.post.title}”? Its ratings and comments go with it. This cannot be undone.</>}
          onConfirm={() => void remove(dialog.post)} onCancel={() => setDialog(null)} />
      ) : null}
    </article>
  );
}

const TITLES: Record<View, string> = {
  active: 'All your articles',
  archived: 'Your archived articles',
  drafts: 'Your drafts',
};

function EmptyArticles({ view, searching }: { view: View; searching: boolean }) {
  if (searching) {
    return (
      <div className="empty-state">
        <h3 className="empty-state__title">No articles found</h3>
        <p>Try other words, or clear the search.</p>
      </div>
    );
  }
  if (view === 'drafts') {
    return (
      <div className="empty-state">
        <h3 className="empty-state__title">No drafts</h3>
        <p>Save an article as a draft from the editor: it waits here, for your eyes only, until you publish it.</p>
      </div>
    );
  }
  if (view === 'archived') {
    return (
      <div className="empty-state">
        <h3 className="empty-state__title">No archived articles</h3>
        <p>Articles you archive are kept here, out of public view, until you unarchive them.</p>
      </div>
    );
  }
  return (
    <div className="empty-state">
      <h3 className="empty-state__title">You haven't published yet</h3>
      <p>Your first story is one headline away.</p>
      <p><Link className="button button--primary" href="/write">Write my first article</Link></p>
    </div>
  );
}
