// The article form's rules (SPEC §5): limits, messages and hashtag cleaning, for the server's
// checks and the editor's alike. Lengths are measured after cleaning (shared/text.ts).
import { lineLength, normalizeLine, textLength } from './text.ts';

export const TITLE_MIN = 20;
export const TITLE_MAX = 80;
export const CONTENT_MIN = 150;
export const CONTENT_MAX = 10_000;
export const HASHTAGS_MAX = 3;
export const HASHTAG_MAX_LENGTH = 20;
export const ARTICLE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const COMMENT_MAX = 1000;
/** The picture's alt text (DESIGN.md, Writing): optional. */
export const IMAGE_ALT_MAX = 200;

export const TITLE_MESSAGE = 'Title must be between 20 and 80 characters';
export const CONTENT_MESSAGE = 'Content must be between 150 and 10,000 characters';
export const HASHTAG_COUNT_MESSAGE = 'You must include between 1 and 3 hashtags';
export const HASHTAG_LENGTH_MESSAGE = 'Each hashtag can have at most 20 characters';
export const HASHTAG_CHARACTERS_MESSAGE = 'Hashtags can only contain letters, numbers, hyphens and underscores';
export const COMMENT_LENGTH_MESSAGE = 'Comment cannot exceed 1000 characters';
export const IMAGE_ALT_MESSAGE = 'Alt text cannot exceed 200 characters';

const HASHTAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;

/** The title's problem, or undefined when it fits. */
export function titleProblem(raw: string): string | undefined {
  const length = lineLength(raw);
  return length < TITLE_MIN || length > TITLE_MAX ? TITLE_MESSAGE : undefined;
}

export function contentProblem(raw: string): string | undefined {
  const length = textLength(raw);
  return length < CONTENT_MIN || length > CONTENT_MAX ? CONTENT_MESSAGE : undefined;
}

/**
 * A draft (DESIGN.md, Drafts) needs only a valid title; its content may be short or missing, never
 * longer than an article's. Publishing it checks everything above.
 */
export function draftContentProblem(raw: string): string | undefined {
  return textLength(raw) > CONTENT_MAX ? CONTENT_MESSAGE : undefined;
}

/** What the picture's `alt` says (DESIGN.md, Writing): the author's words, or the title's. */
export function pictureAlt(post: { image_alt: string; title: string }): string {
  return post.image_alt || `Illustration for “${post.title}”`;
}

export function imageAltProblem(raw: string): string | undefined {
  return lineLength(raw) > IMAGE_ALT_MAX ? IMAGE_ALT_MESSAGE : undefined;
}

/** '#Jazz ' → 'jazz'. Cleaned like any line of text, leading #s stripped, trimmed, lower-cased. */
export function normalizeHashtag(raw: string): string {
  // Spaces between leading #s go too: '# #jazz' is jazz, and normalising twice changes nothing.
  return normalizeLine(raw).replace(/^[#\s]+/, '').trim().toLowerCase();
}

/** A post's tags as its row keeps them (a JSON list, for display); anything unreadable is no tags. */
export function storedHashtags(json: string): string[] {
  try {
    const tags: unknown = JSON.parse(json);
    return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** Why a cleaned tag cannot be used, beyond being empty or a duplicate (ignored silently). */
export function hashtagProblem(tag: string): string | undefined {
  if (tag.length > HASHTAG_MAX_LENGTH) return HASHTAG_LENGTH_MESSAGE;
  if (!HASHTAG_PATTERN.test(tag)) return HASHTAG_CHARACTERS_MESSAGE;
  return undefined;
}

/**
 * A comment's problem: empty (the message differs between writing, 'Write a comment', and
 * editing, 'Comment cannot be empty') or too long.
 */
export function commentProblem(raw: string, emptyMessage: string): string | undefined {
  const length = textLength(raw);
  if (length === 0) return emptyMessage;
  if (length > COMMENT_MAX) return COMMENT_LENGTH_MESSAGE;
  return undefined;
}
