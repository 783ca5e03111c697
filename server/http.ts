// Reading request input: every parser either returns a clean value or throws a 400/404 HttpError.
import type { Request } from 'express';
import { normalizeLine, normalizeText } from '../shared/text.ts';
import { badRequest, notFound } from './errors.ts';

export type Body = Record<string, unknown>;

/** The JSON or form body as a plain object; anything else (array, string, missing) reads as {}. */
export function bodyOf(req: Request): Body {
  const body: unknown = req.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/**
 * A multi-line string field, cleaned as shared/text.ts says (line endings, control and invisible
 * characters) and trimmed, so it is checked as stored; undefined when absent or not a string.
 */
export function multilineText(body: Body, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? normalizeText(value) : undefined;
}

/** A one-line string field (title, name, subject, reason), cleaned the same way. */
export function lineText(body: Body, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? normalizeLine(value) : undefined;
}

/** A string field as sent (passwords are never trimmed). */
export function rawText(body: Body, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/** A single query-string value; repeated parameters (?a=1&a=2) are refused. */
export function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once, as text`);
  // Cleaned as every text field is: controls match nothing (a NUL never gets here: refused-text.ts).
  return normalizeLine(value);
}

function nonNegativeInteger(req: Request, name: string, fallback: number): number {
  const text = queryText(req, name)?.trim();
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text)) throw badRequest(`${name} must be a non-negative integer`);
  return Number(text);
}

export interface Page {
  skip: number;
  limit: number;
}

/**
 * skip/limit from the query string; limit is clamped to max (DESIGN.md, API conventions). A
 * route paging several lists names each list's skip (`followers_skip`).
 */
export function pageOf(req: Request, defaultLimit: number, maxLimit = 100, skipName = 'skip'): Page {
  const skip = nonNegativeInteger(req, skipName, 0);
  const limit = nonNegativeInteger(req, 'limit', defaultLimit);
  if (limit < 1) throw badRequest('limit must be a positive integer');
  return { skip, limit: Math.min(limit, maxLimit) };
}

/** An enumerated query value; unknown values are a 400 naming the allowed ones. */
export function choiceOf<T extends string>(
  req: Request, name: string, allowed: readonly T[], fallback: T,
): T {
  const text = queryText(req, name)?.trim();
  if (text === undefined || text === '') return fallback;
  if (!allowed.includes(text as T)) {
    throw badRequest(`${name} must be one of: ${allowed.join(', ')}`);
  }
  return text as T;
}

/** A boolean query flag: true/false/1/0; absent is the fallback. */
export function flagOf(req: Request, name: string, fallback = false): boolean {
  const text = queryText(req, name)?.trim().toLowerCase();
  if (text === undefined || text === '') return fallback;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw badRequest(`${name} must be true or false`);
}

/** A path id; anything but a positive integer cannot name a row, so it is that row's 404. */
export function idOf(value: string | string[] | undefined, notFoundDetail: string): number {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) throw notFound(notFoundDetail);
  const id = Number(value);
  if (!Number.isSafeInteger(id)) throw notFound(notFoundDetail);
  return id;
}
