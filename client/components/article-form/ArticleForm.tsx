// The article form shared by /write and the edit modal: title and content with live counters,
// hashtags, and the black-and-white featured image. It checks SPEC §5 and hands the article's
// fields (the image only if one was chosen) to its owner, which sends them as a multipart form.
// With `onSaveDraft`, 'Guardar como borrador' hands them over too, checked as a draft's (a valid
// title is enough).
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CONTENT_MAX, CONTENT_MIN, TITLE_MAX, TITLE_MIN } from '../../../shared/articles.ts';
import { lineLength, textLength } from '../../../shared/text.ts';
import type { ArticleFormBody, Post } from '../../types.ts';
import { InputField, TextAreaField } from '../Field.tsx';
import {
  addHashtag, validateArticle, validateDraft, type ArticleErrors, type ArticleFields,
} from './articleRules.ts';
import { HashtagInput } from './HashtagInput.tsx';
import { ImageField, type ImageChoice } from './ImageField.tsx';

const ORDER: (keyof ArticleFields)[] = ['title', 'content', 'hashtags'];

export function ArticleForm({ idPrefix, initial, label, submitLabel, busyLabel, onSubmit, onSaveDraft, children }: {
  idPrefix: string;
  initial?: Post;
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** Sends the form; its own errors are the caller's to show. */
  onSubmit: (fields: ArticleFormBody) => Promise<void>;
  /** Saves the form as a draft (the 'Guardar como borrador' button shows only with it). */
  onSaveDraft?: (fields: ArticleFormBody) => Promise<void>;
  /** More buttons beside the submit button (Cancel). */
  children?: ReactNode;
}) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [content, setContent] = useState(initial?.content ?? '');
  const [hashtags, setHashtags] = useState<string[]>(initial?.hashtags ?? []);
  const [draftTag, setDraftTag] = useState('');
  const [image, setImage] = useState<ImageChoice>({ file: null, removeCurrent: false });
  const [errors, setErrors] = useState<ArticleErrors>({});
  const [busy, setBusy] = useState<'submit' | 'draft' | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const ids = { title: `${idPrefix}-title`, content: `${idPrefix}-content`, hashtags: `${idPrefix}-hashtags` };

  /** The fields to send, or undefined when `validate` finds a problem (shown, first one focused). */
  function collect(validate: (fields: ArticleFields) => ArticleErrors): ArticleFormBody | undefined {
    const tags = draftTag.trim() ? addHashtag(hashtags, draftTag) : hashtags;
    if (tags !== hashtags) {
      setHashtags(tags);
      setDraftTag('');
    }
    const found = validate({ title, content, hashtags: tags });
    setErrors(found);
    const invalid = ORDER.find((field) => found[field]);
    if (invalid) {
      form.current?.querySelector<HTMLElement>(`#${ids[invalid]}`)?.focus();
      return undefined;
    }
    const fields: ArticleFormBody = { title: title.trim(), content: content.trim(), hashtags: tags };
    if (image.file) fields.image = image.file;
    else if (image.removeCurrent) fields.remove_image = true;
    return fields;
  }

  async function send(kind: 'submit' | 'draft', handler: (fields: ArticleFormBody) => Promise<void>) {
    if (busy) return;
    const fields = collect(kind === 'draft' ? validateDraft : validateArticle);
    if (!fields) return;
    setBusy(kind);
    try {
      await handler(fields);
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
      <InputField id={ids.title} label="Title" value={title} error={errors.title} maxLength={TITLE_MAX + 20}
        placeholder="A headline of 20 to 80 characters" hintId={`${ids.title}-count`}
        onChange={(event) => { setTitle(event.target.value); setErrors((e) => ({ ...e, title: undefined })); }}
        hint={<Counter id={`${ids.title}-count`} length={titleLength} min={TITLE_MIN} max={TITLE_MAX} />} />
      <TextAreaField id={ids.content} label="Content" value={content} error={errors.content} rows={12}
        placeholder="Your article: 150 to 10,000 characters" hintId={`${ids.content}-count`}
        onChange={(event) => { setContent(event.target.value); setErrors((e) => ({ ...e, content: undefined })); }}
        hint={<Counter id={`${ids.content}-count`} length={contentLength} min={CONTENT_MIN} max={CONTENT_MAX} />} />
      <HashtagInput id={ids.hashtags} tags={hashtags} error={errors.hashtags} draft={draftTag}
        onDraftChange={setDraftTag}
        onChange={(tags) => { setHashtags(tags); setErrors((e) => ({ ...e, hashtags: undefined })); }} />
      <ImageField id={`${idPrefix}-image`} currentUrl={initial?.image ?? null} onChange={setImage} />
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
