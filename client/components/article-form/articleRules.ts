// The article form's client checks (SPEC §5), pure so they can be unit-tested. The server checks
// again with the same messages.
import { lineLength, normalizeLine, textLength } from '../../../shared/text.ts';

export const TITLE_MIN = 20;
export const TITLE_MAX = 80;
export const CONTENT_MIN = 150;
export const CONTENT_MAX = 10_000;
export const HASHTAGS_MAX = 3;
export const HASHTAG_LENGTH_MAX = 20;
export const ARTICLE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export interface ArticleFields {
  title: string;
  content: string;
  hashtags: string[];
}

export type ArticleErrors = Partial<Record<keyof ArticleFields, string>>;

export function validateArticle(fields: ArticleFields): ArticleErrors {
  const errors: ArticleErrors = {};
  const title = lineLength(fields.title);
  if (title < TITLE_MIN || title > TITLE_MAX) errors.title = 'Title must be between 20 and 80 characters';
  const content = textLength(fields.content);
  if (content < CONTENT_MIN || content > CONTENT_MAX) {
    errors.content = 'Content must be between 150 and 10,000 characters';
  }
  if (fields.hashtags.length < 1 || fields.hashtags.length > HASHTAGS_MAX) {
    errors.hashtags = 'You must include between 1 and 3 hashtags';
  }
  return errors;
}

/** '  #Jazz ' → 'jazz': leading # stripped, trimmed, lower-cased as the server stores it. */
export function cleanHashtag(raw: string): string {
  return normalizeLine(raw).replace(/^#+/, '').trim().toLowerCase();
}

/** Why a cleaned tag cannot be added, beyond being empty or a duplicate (ignored silently). */
export function hashtagProblem(tag: string): string | undefined {
  if (tag.length > HASHTAG_LENGTH_MAX) return 'Each hashtag can have at most 20 characters';
  if (!/^[\p{L}\p{N}_-]+$/u.test(tag)) return 'Hashtags can only contain letters, numbers, hyphens and underscores';
  return undefined;
}

/** The list after entering `raw`: empty and duplicate entries are ignored, never more than 3. */
export function addHashtag(tags: string[], raw: string): string[] {
  const tag = cleanHashtag(raw);
  if (!tag || tags.includes(tag) || tags.length >= HASHTAGS_MAX || hashtagProblem(tag)) return tags;
  return [...tags, tag];
}

/** The counter beside the hashtag entry. */
export function hashtagCounterText(count: number): string {
  const left = HASHTAGS_MAX - count;
  if (left <= 0) return 'Maximum reached';
  return `You can add ${left} more`;
}
