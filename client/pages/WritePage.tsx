// /write (SPEC §2, Editor): title, content, hashtags and a black-and-white featured image.
// Signed-in only. 'Publicar' publishes the article and opens it; 'Guardar como borrador' saves a
// draft (a valid title is enough, DESIGN.md, Drafts) and keeps the editor on it at
// /write?draft={id}, the address My profile reopens it at; there 'Publicar' publishes the draft
// with what the form holds.
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, api } from '../api.ts';
import { ArticleForm } from '../components/article-form/ArticleForm.tsx';
import { Loading } from '../components/Loading.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { draftHref, postHref } from '../components/posts/PostBits.tsx';
import { TimeAgo } from '../components/TimeAgo.tsx';
import { sendFailed, toastSuccess } from '../feedback.ts';
import { currentUser } from '../state/session.ts';
import type { ArticleFormBody, Post } from '../types.ts';

const PUBLISH_FAILED = 'Error publishing article';
const SAVE_FAILED = 'Error saving draft';
export const DRAFT_SAVED = 'Draft saved';

export function WritePage() {
  const draft = new URLSearchParams(useSearch()).get('draft');
  return draft === null ? <NewArticle /> : <DraftEditor key={draft} id={draft} />;
}

function WriteShell({ intro, children }: { intro: ReactNode; children: ReactNode }) {
  return (
    <article className="page write-page">
      <PageHeading title="Write" kicker="Stop the presses" />
      <p className="write-page__intro">{intro}</p>
      {children}
    </article>
  );
}

/** A new article or a finished draft goes to press, and the writer to what was printed. */
async function publishAndOpen(send: () => Promise<Post>, navigate: (to: string) => void): Promise<boolean> {
  try {
    const post = await send();
    toastSuccess('Article published successfully!', PUBLISH_FAILED);
    navigate(postHref(post));
    return true;
  } catch (error) {
    return sendFailed(error, PUBLISH_FAILED);
  }
}

function NewArticle() {
  const [, navigate] = useLocation();

  const publish = (fields: ArticleFormBody) => publishAndOpen(() => api.posts.create(fields), navigate);

  async function save(fields: ArticleFormBody) {
    try {
      const draft = await api.posts.create({ ...fields, draft: true });
      toastSuccess(DRAFT_SAVED, SAVE_FAILED);
      navigate(draftHref(draft), { replace: true });
      return true;
    } catch (error) {
      return sendFailed(error, SAVE_FAILED);
    }
  }

  return (
    <WriteShell intro="A headline, your text, up to three hashtags and, if you like, a picture: it goes to press in black and white.">
      <ArticleForm idPrefix="write" unsentAs="article:new" label="Write an article" submitLabel="Publicar" busyLabel="Publicando..."
        onSubmit={publish} onSaveDraft={save} />
    </WriteShell>
  );
}

type Loaded = { draft: Post; version: number } | 'missing' | 'failed' | null;

function DraftEditor({ id }: { id: string }) {
  useSignals();
  const [, navigate] = useLocation();
  const me = currentUser.value;
  const [loaded, setLoaded] = useState<Loaded>(null);

  useEffect(() => {
    let live = true;
    api.posts.one(id)
      .then((draft) => { if (live) setLoaded({ draft, version: 0 }); })
      .catch((error: unknown) => { if (live) setLoaded(error instanceof ApiError && error.status === 404 ? 'missing' : 'failed'); });
    return () => { live = false; };
  }, [id]);

  if (loaded === null) return <WriteShell intro="Opening your draft…"><Loading label="Loading your draft…" /></WriteShell>;
  if (loaded === 'failed') {
    return <WriteShell intro="The draft could not be loaded. Please try again."><BackToDrafts /></WriteShell>;
  }
  // An admin may read someone's draft, but only its author writes it.
  if (loaded === 'missing' || loaded.draft.author_id !== me?.id) {
    return <WriteShell intro="There is no draft of yours with this number."><BackToDrafts /></WriteShell>;
  }
  const { draft, version } = loaded;
  if (draft.status !== 'draft') {
    return (
      <WriteShell intro="This draft has been published already.">
        <p><Link className="button button--primary" href={postHref(draft)}>Read the article</Link></p>
      </WriteShell>
    );
  }

  const publish = (fields: ArticleFormBody) => publishAndOpen(() => api.posts.publish(draft.id, fields), navigate);

  async function save(fields: ArticleFormBody) {
    try {
      const saved = await api.posts.update(draft.id, fields);
      toastSuccess(DRAFT_SAVED, SAVE_FAILED);
      // The form starts again from what is stored now (its image included).
      setLoaded({ draft: saved, version: version + 1 });
      return true;
    } catch (error) {
      return sendFailed(error, SAVE_FAILED);
    }
  }

  return (
    <WriteShell intro={<>Your draft, saved <TimeAgo iso={draft.updated_at} />: only you can read it until you publish it.</>}>
      <ArticleForm key={version} idPrefix="write" initial={draft} unsentAs={`article:${draft.id}`} label="Edit your draft" submitLabel="Publicar"
        busyLabel="Publicando..." onSubmit={publish} onSaveDraft={save} />
    </WriteShell>
  );
}

function BackToDrafts() {
  return (
    <p>
      <Link className="button button--primary" href="/profile">Your drafts are in your profile</Link>{' '}
      <Link className="button" href="/write">Write a new article</Link>
    </p>
  );
}
