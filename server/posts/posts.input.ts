// The article form (SPEC §5): title, content and 1–3 hashtags, as the server accepts them.
import { badRequest } from '../errors.ts';
import type { Body } from '../http.ts';
import { lineText, multilineText } from '../http.ts';
import { normalizeLine } from '../../shared/text.ts';

export const TITLE_MIN = 20;
export const TITLE_MAX = 80;
export const CONTENT_MIN = 150;
export const CONTENT_MAX = 10_000;
export const HASHTAGS_MAX = 3;
export const HASHTAG_MAX_LENGTH = 20;

export const HASHTAG_COUNT_MESSAGE = 'You must include between 1 and 3 hashtags';
const HASHTAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;

export interface PostInput {
  title: string;
  content: string;
  hashtags: string[];
}

/** '#Jazz ' → 'jazz'. Cleaned like any line of text, leading #s stripped, trimmed, lower-cased. */
export function normalizeHashtag(raw: string): string {
  return normalizeLine(raw).replace(/^#+/, '').trim().toLowerCase();
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

export function parseHashtags(value: unknown): string[] {
  const tags: string[] = [];
  for (const item of hashtagList(value)) {
    if (typeof item !== 'string') throw badRequest(HASHTAG_COUNT_MESSAGE);
    const tag = normalizeHashtag(item);
    if (tag === '' || tags.includes(tag)) continue; // empty and duplicates are ignored
    if (tag.length > HASHTAG_MAX_LENGTH) throw badRequest('Each hashtag can have at most 20 characters');
    if (!HASHTAG_PATTERN.test(tag)) {
      throw badRequest('Hashtags can only contain letters, numbers, hyphens and underscores');
    }
    tags.push(tag);
  }
  if (tags.length < 1 || tags.length > HASHTAGS_MAX) throw badRequest(HASHTAG_COUNT_MESSAGE);
  return tags;
}

export function parsePostInput(body: Body): PostInput {
  const title = lineText(body, 'title') ?? '';
  if (title.length < TITLE_MIN || title.length > TITLE_MAX) {
    throw badRequest('Title must be between 20 and 80 characters');
  }
  const content = multilineText(body, 'content') ?? '';
  if (content.length < CONTENT_MIN || content.length > CONTENT_MAX) {
    throw badRequest('Content must be between 150 and 10,000 characters');
  }
  return { title, content, hashtags: parseHashtags(body.hashtags) };
}

export type TimePeriod = '' | '24h' | '7d' | '30d';
export const TIME_PERIODS: readonly TimePeriod[] = ['', '24h', '7d', '30d'];
const PERIOD_MS: Record<Exclude<TimePeriod, ''>, number> = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

/** The earliest publication time a period admits; undefined for all time. */
export function sinceOf(period: TimePeriod, now = Date.now()): string | undefined {
  return period === '' ? undefined : new Date(now - PERIOD_MS[period]).toISOString();
}
