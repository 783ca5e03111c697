// The article form (SPEC §5): title, content and 1–3 hashtags, as the server accepts them.
import { badRequest } from '../errors.ts';
import type { Body } from '../http.ts';
import { lineText, multilineText } from '../http.ts';
import {
  HASHTAG_COUNT_MESSAGE, HASHTAGS_MAX, contentProblem, draftContentProblem, hashtagProblem, imageAltProblem, normalizeHashtag,
  titleProblem,
} from '../../shared/articles.ts';

export interface PostInput {
  title: string;
  /** Markdown (DESIGN.md, Writing). */
  content: string;
  hashtags: string[];
  /** The picture's alt text; undefined when the form did not send it (kept as it is). */
  imageAlt?: string;
}

/** Hashtags arrive as JSON text in multipart forms, or as an array in JSON bodies. */
function hashtagList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') throw badRequest(HASHTAG_COUNT_MESSAGE);
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // not JSON: fall through
  }
  throw badRequest(HASHTAG_COUNT_MESSAGE);
}

/** A draft may have no hashtags yet (absent, '' or []), never more than 3. */
export function parseHashtags(value: unknown, min = 1): string[] {
  const tags: string[] = [];
  for (const item of hashtagList(value)) {
    if (typeof item !== 'string') throw badRequest(HASHTAG_COUNT_MESSAGE);
    const tag = normalizeHashtag(item);
    if (tag === '' || tags.includes(tag)) continue; // empty and duplicates are ignored
    const problem = hashtagProblem(tag);
    if (problem) throw badRequest(problem);
    tags.push(tag);
  }
  if (tags.length < min || tags.length > HASHTAGS_MAX) throw badRequest(HASHTAG_COUNT_MESSAGE);
  return tags;
}

export function parsePostInput(body: Body): PostInput {
  const title = lineText(body, 'title') ?? '';
  const titleError = titleProblem(title);
  if (titleError) throw badRequest(titleError);
  const content = multilineText(body, 'content') ?? '';
  const contentError = contentProblem(content);
  if (contentError) throw badRequest(contentError);
  return { title, content, hashtags: parseHashtags(body.hashtags), ...parseImageAlt(body) };
}

/** `{imageAlt}` when the form sends one, checked; nothing when it does not (the stored one stays). */
function parseImageAlt(body: Body): Pick<PostInput, 'imageAlt'> {
  if (body.image_alt === undefined) return {};
  const alt = lineText(body, 'image_alt');
  if (alt === undefined) throw badRequest('image_alt must be text');
  const problem = imageAltProblem(alt);
  if (problem) throw badRequest(problem);
  return { imageAlt: alt };
}

/** A draft's form (DESIGN.md, Drafts): a valid title; content and hashtags may be partial or missing. */
export function parseDraftInput(body: Body): PostInput {
  const title = lineText(body, 'title') ?? '';
  const titleError = titleProblem(title);
  if (titleError) throw badRequest(titleError);
  const content = multilineText(body, 'content') ?? '';
  const contentError = draftContentProblem(content);
  if (contentError) throw badRequest(contentError);
  const hashtags = body.hashtags === undefined || body.hashtags === '' ? [] : parseHashtags(body.hashtags, 0);
  return { title, content, hashtags, ...parseImageAlt(body) };
}

/**
 * What a draft is published as: its stored title, content and hashtags, each replaced by the
 * form's when sent (the editor publishes what it shows), checked by every rule of SPEC §5.
 */
export function parsePublishInput(stored: Omit<PostInput, 'imageAlt'>, body: Body): PostInput {
  const sent = (['title', 'content', 'hashtags', 'image_alt'] as const).filter((field) => body[field] !== undefined);
  return parsePostInput({ ...stored, ...Object.fromEntries(sent.map((field) => [field, body[field]])) });
}

/** The form's `draft` field: true, false or absent (false). */
export function draftFlag(body: Body): boolean {
  const value = body.draft;
  if (value === undefined || value === false || value === 'false' || value === '') return false;
  if (value === true || value === 'true') return true;
  throw badRequest('draft must be true or false');
}

export type TimePeriod = '' | '24h' | '7d' | '30d';
export const TIME_PERIODS: readonly TimePeriod[] = ['', '24h', '7d', '30d'];
const PERIOD_MS: Record<Exclude<TimePeriod, ''>, number> = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

/** The earliest publication time a period admits; undefined for all time. */
export function sinceOf(period: TimePeriod, now = Date.now()): string | undefined {
  return period === '' ? undefined : new Date(now - PERIOD_MS[period]).toISOString();
}
