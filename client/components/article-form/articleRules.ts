// The editor's checks and hashtag entry, pure so they can be unit-tested. The rules themselves
// are shared/articles.ts, which the server runs too.
import {
  HASHTAG_COUNT_MESSAGE, HASHTAGS_MAX, contentProblem, draftContentProblem, hashtagProblem, imageAltProblem, normalizeHashtag,
  titleProblem,
} from '../../../shared/articles.ts';

export interface ArticleFields {
  title: string;
  content: string;
  hashtags: string[];
  /** The picture's alt text. */
  imageAlt: string;
}

export type ArticleErrors = Partial<Record<keyof ArticleFields, string>>;

export function validateArticle(fields: ArticleFields): ArticleErrors {
  const errors: ArticleErrors = {};
  const title = titleProblem(fields.title);
  if (title) errors.title = title;
  const content = contentProblem(fields.content);
  if (content) errors.content = content;
  if (fields.hashtags.length < 1 || fields.hashtags.length > HASHTAGS_MAX) errors.hashtags = HASHTAG_COUNT_MESSAGE;
  const imageAlt = imageAltProblem(fields.imageAlt);
  if (imageAlt) errors.imageAlt = imageAlt;
  return errors;
}

/** A draft needs a valid title only; its content may be short, never over the article's maximum. */
export function validateDraft(fields: ArticleFields): ArticleErrors {
  const errors: ArticleErrors = {};
  const title = titleProblem(fields.title);
  if (title) errors.title = title;
  const content = draftContentProblem(fields.content);
  if (content) errors.content = content;
  if (fields.hashtags.length > HASHTAGS_MAX) errors.hashtags = HASHTAG_COUNT_MESSAGE;
  const imageAlt = imageAltProblem(fields.imageAlt);
  if (imageAlt) errors.imageAlt = imageAlt;
  return errors;
}

/** Two states of the form hold the same words (what the browser keeps of an unsent article). */
export function sameArticle(a: ArticleFields, b: ArticleFields): boolean {
  return a.title === b.title && a.content === b.content && a.imageAlt === b.imageAlt
    && a.hashtags.length === b.hashtags.length && a.hashtags.every((tag, i) => tag === b.hashtags[i]);
}

/** The list after entering `raw`: empty and duplicate entries are ignored, never more than 3. */
export function addHashtag(tags: string[], raw: string): string[] {
  const tag = normalizeHashtag(raw);
  if (!tag || tags.includes(tag) || tags.length >= HASHTAGS_MAX || hashtagProblem(tag)) return tags;
  return [...tags, tag];
}

/** The counter beside the hashtag entry. */
export function hashtagCounterText(count: number): string {
  const left = HASHTAGS_MAX - count;
  if (left <= 0) return 'Maximum reached';
  return `You can add ${left} more`;
}
