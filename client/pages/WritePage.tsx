// /write (SPEC §2, Editor): title, content, hashtags and a black-and-white featured image.
// Signed-in only. 'Publicar' sends the article and opens it; 'Guardar como borrador' only says
// that drafts are not kept yet (SPEC shows no behaviour for it).
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { api } from '../api.ts';
import { ArticleForm } from '../components/article-form/ArticleForm.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { postHref } from '../components/posts/PostBits.tsx';
import { toastApiError, toastSuccess } from '../feedback.ts';
import type { ArticleFormBody } from '../types.ts';

export const DRAFTS_NOTICE = 'Drafts are coming soon. Nothing was saved: publish, then archive the article from your profile to keep it private.';

export function WritePage() {
  const [, navigate] = useLocation();

  async function publish(fields: ArticleFormBody) {
    try {
      const post = await api.posts.create(fields);
      toastSuccess('Article published successfully!', 'Error publishing article');
      navigate(postHref(post));
    } catch (error) {
      toastApiError(error, 'Error publishing article');
    }
  }

  return (
    <article className="page write-page">
      <PageHeading title="Write" kicker="Stop the presses" />
      <p className="write-page__intro">
        A headline, your text, up to three hashtags and, if you like, a picture: it goes to press in black and white.
      </p>
      <ArticleForm idPrefix="write" label="Write an article" submitLabel="Publicar" busyLabel="Publicando..."
        onSubmit={publish}>
        <button type="button" className="button button--ghost" onClick={() => toast(DRAFTS_NOTICE, { id: 'drafts' })}>
          Guardar como borrador
        </button>
      </ArticleForm>
    </article>
  );
}
