// The article form shared by /write and the edit modal: title with its counter, the content in the
// Markdown editor (DESIGN.md, Writing), hashtags, and the black-and-white featured image with its
// alt text. It checks SPEC §5 and hands the article's fields (the image only if one was chosen) to
// its owner, which sends them as a multipart form. With `onSaveDraft`, 'Guardar como borrador'
// hands them over too, checked as a draft's (a valid title is enough). What is typed and not sent
// is kept in the browser under `unsentAs` and offered back (editor/unsent.ts).
import { useSignals } from '@preact/signals-react/runtime';
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CONTENT_MAX, CONTENT_MIN, IMAGE_ALT_MAX, TITLE_MAX, TITLE_MIN } from '../../../shared/articles.ts';
import { lineLength, textLength } from '../../../shared/text.ts';
import { currentUser } from '../../state/session.ts';
import type { ArticleFormBody, Post } from '../../types.ts';
import { MarkdownEditor } from '../editor/MarkdownEditor.tsx';
import { UnsentNotice } from '../editor/UnsentNotice.tsx';
import { unsentKey, useUnsent } from '../editor/unsent.ts';
import { InputField } from '../Field.tsx';
import {
  addHashtag, sameArticle, validateArticle, validateDraft, type ArticleErrors, type ArticleFields,
} from './articleRules.ts';
import { HashtagInput } from './HashtagInput.tsx';
import { ImageField, type ImageChoice } from './ImageField.tsx';

const ORDER: (keyof ArticleFields)[] = ['title', 'content', 'hashtags', 'imageAlt'];
const PICTURE_NOT_KEPT = 'A picture is not kept: choose it again if you had one.';

/** What the form holds when it opens. */
function startingFields(post: Post | undefined): ArticleFields {
  return { title: post?.title ?? '', content: post?.content ?? '', hashtags: post?.hashtags ?? [], imageAlt: post?.image_alt ?? '' };
}

export function ArticleForm({ idPrefix, initial, unsentAs, label, submitLabel, busyLabel, onSubmit, onSaveDraft, children }: {
  idPrefix: string;
  initial?: Post;
  /** The form, for the copy of what is not sent yet: 'article:new' or `article:${id}`. */
  unsentAs: string;
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** Sends the form; true when it was sent (the kept copy is then dropped). Its errors are the caller's to show. */
  onSubmit: (fields: ArticleFormBody) => Promise<boolean>;
  /** Saves the form as a draft (the 'Guardar como borrador' button shows only with it). */
  onSaveDraft?: (fields: ArticleFormBody) => Promise<boolean>;
  /** More buttons beside the submit button (Cancel). */
  children?: ReactNode;
}) {
  useSignals();
  const [start] = useState(() => startingFields(initial));
  const [title, setTitle] = useState(start.title);
  const [content, setContent] = useState(start.content);
  const [hashtags, setHashtags] = useState<string[]>(start.hashtags);
  const [imageAlt, setImageAlt] = useState(start.imageAlt);
  const [draftTag, setDraftTag] = useState('');
  const [image, setImage] = useState<ImageChoice>({ file: null, removeCurrent: false });
  const [errors, setErrors] = useState<ArticleErrors>({});
  const [busy, setBusy] = useState<'submit' | 'draft' | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const ids = { title: `${idPrefix}-title`, content: `${idPrefix}-content`, hashtags: `${idPrefix}-hashtags`, imageAlt: `${idPrefix}-image-alt` };
  const userId = currentUser.value?.id;
  const fields = useMemo(() => ({ title, content, hashtags, imageAlt }), [title, content, hashtags, imageAlt]);
  const [restoredAt, setRestoredAt] = useState<string>();
  // A new article's empty form takes its unsent copy back at once (after a reload, or a
  // publication that met an expired session and a new sign-in); an edit offers it.
  const opensEmpty = sameArticle(start, startingFields(undefined));
  const unsent = useUnsent(userId === undefined ? undefined : unsentKey(userId, unsentAs), fields, start, sameArticle,
    opensEmpty ? (kept, savedAt) => { put(kept); setRestoredAt(savedAt); } : undefined);
  const hasPicture = image.file !== null || (Boolean(initial?.image) && !image.removeCurrent);

  function put(values: ArticleFields) {
    setTitle(values.title);
    setContent(values.content);
    setHashtags(values.hashtags);
    setImageAlt(values.imageAlt);
    setErrors({});
  }

  function restore() {
    const kept = unsent.accept();
    if (kept) put(kept);
  }

  /** The fields to send, or undefined when `validate` finds a problem (shown, first one focused). */
  function collect(validate: (fields: ArticleFields) => ArticleErrors): ArticleFormBody | undefined {
    const tags = draftTag.trim() ? addHashtag(hashtags, draftTag) : hashtags;
    if (tags !== hashtags) {
      setHashtags(tags);
      setDraftTag('');
    }
    const found = validate({ title, content, hashtags: tags, imageAlt: hasPicture ? imageAlt : '' });
    setErrors(found);
    const invalid = ORDER.find((field) => found[field]);
    if (invalid) {
      form.current?.querySelector<HTMLElement>(`#${ids[invalid]}`)?.focus();
      return undefined;
    }
    const body: ArticleFormBody = { title: title.trim(), content: content.trim(), hashtags: tags };
    if (image.file) body.image = image.file;
    else if (image.removeCurrent) body.remove_image = true;
    if (hasPicture) body.image_alt = imageAlt.trim();
    return body;
  }

  async function send(kind: 'submit' | 'draft', handler: (fields: ArticleFormBody) => Promise<boolean>) {
    if (busy) return;
    const body = collect(kind === 'draft' ? validateDraft : validateArticle);
    if (!body) return;
    setBusy(kind);
    try {
      if (await handler(body)) unsent.sent();
    } finally {
      setBusy(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void send('submit', onSubmit);
  }

  const titleLength = lineLength(title);
  const contentLength = textLength(content);
  return (
    <form ref={form} className="form article-form" onSubmit={submit} noValidate aria-label={label}>
      {unsent.offer || restoredAt ? (
        <UnsentNotice savedAt={unsent.offer?.savedAt ?? restoredAt!} note={PICTURE_NOT_KEPT}
          onRestore={restoredAt === undefined ? restore : undefined} onDiscard={() => { if (restoredAt) put(start); setRestoredAt(undefined); unsent.discard(); }} />
      ) : null}
      <InputField id={ids.title} label="Title" value={title} error={errors.title} maxLength={TITLE_MAX + 20}
        placeholder="A headline of 20 to 80 characters" hintId={`${ids.title}-count`}
        onChange={(event) => { setTitle(event.target.value); setErrors((e) => ({ ...e, title: undefined })); }}
        hint={<Counter id={`${ids.title}-count`} length={titleLength} min={TITLE_MIN} max={TITLE_MAX} />} />
      <MarkdownEditor id={ids.content} label="Content" value={content} error={errors.content} rows={12}
        placeholder="Your article: 150 to 10,000 characters" hintId={`${ids.content}-count`}
        onChange={(text) => { setContent(text); setErrors((e) => ({ ...e, content: undefined })); }}
        hint={<Counter id={`${ids.content}-count`} length={contentLength} min={CONTENT_MIN} max={CONTENT_MAX} />} />
      <HashtagInput id={ids.hashtags} tags={hashtags} error={errors.hashtags} draft={draftTag}
        onDraftChange={setDraftTag}
        onChange={(tags) => { setHashtags(tags); setErrors((e) => ({ ...e, hashtags: undefined })); }} />
      <ImageField id={`${idPrefix}-image`} currentUrl={initial?.image ?? null} onChange={setImage} />
      {hasPicture ? (
        <InputField id={ids.imageAlt} label="Alt text (optional)" value={imageAlt} error={errors.imageAlt} maxLength={IMAGE_ALT_MAX + 20}
          placeholder="What the picture shows, for readers who cannot see it" hintId={`${ids.imageAlt}-count`}
          onChange={(event) => { setImageAlt(event.target.value); setErrors((e) => ({ ...e, imageAlt: undefined })); }}
          hint={<Counter id={`${ids.imageAlt}-count`} length={lineLength(imageAlt)} min={0} max={IMAGE_ALT_MAX} />} />
      ) : null}
      <div className="article-form__actions">
        {children}
        {onSaveDraft ? (
          <button type="button" className="button button--ghost" disabled={busy !== null} aria-busy={busy === 'draft'}
            onClick={() => void send('draft', onSaveDraft)}>
            {busy === 'draft' ? 'Guardando...' : 'Guardar como borrador'}
          </button>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy !== null} aria-busy={busy === 'submit'}>
          {busy === 'submit' ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}

function Counter({ id, length, min, max }: { id: string; length: number; min: number; max: number }) {
  const outside = length > max || (length > 0 && length < min);
  return (
    <span id={id} className={outside ? 'counter counter--over' : 'counter'}>
      {length.toLocaleString('en-US')}/{max.toLocaleString('en-US')}
    </span>
  );
}
