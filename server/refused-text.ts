// Text that no input may carry, refused wherever it comes before any route reads it (DESIGN.md,
// Edges; docs/api.md, Refused text): U+0000, which PostgreSQL refuses in text (a 500 there, where
// SQLite stored it); a lone surrogate, which no UTF-8 encodes; and bytes that are not UTF-8
// (over-long 0xC0 0x80, a surrogate's 0xED 0xA0 0x80), which a decoder would otherwise turn
// into U+FFFD unseen. A path, a query value, a JSON key or value, a form field: a 400 with
// REFUSED_TEXT from the API, the not-found page for any other address. The other control
// characters are still removed from text fields as they are cleaned (shared/text.ts).
import { isUtf8 } from 'node:buffer';
import type { Request, RequestHandler, Response } from 'express';
import { badRequest } from './errors.ts';

export const REFUSED_TEXT = 'The request contains characters that are not allowed';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a decoded string may be read: no NUL, no lone surrogate. */
export function isAllowedText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** Every string in a parsed body, keys too, walked without recursion (a body may nest deeply). */
export function isAllowedValue(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!isAllowedText(next)) return false;
    } else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (!isAllowedText(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

/** Whether every name and value of a query string decodes, as a form's do, to allowed text. */
function queryAllowed(query: string): boolean {
  for (const pair of query.split('&')) {
    for (const part of pair.split('=')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return false; // not UTF-8 once decoded: %C0%80, %ED%A0%80, a stray %
      }
      if (!isAllowedText(decoded)) return false;
    }
  }
  return true;
}

/** Express matches paths regardless of case: /API/… reaches the API too. */
const isApi = (req: Request) => /^\/api(\/|$)/i.test(req.path);

/**
 * The address: its path (decodable: paths.ts ran first) and its query. `notFoundPage` answers a
 * page's address, whose reader gets the page that says nothing is there.
 */
export function refuseTextInAddress(notFoundPage: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const mark = req.originalUrl.indexOf('?');
    const allowed = isAllowedText(decodeURIComponent(req.path))
      && (mark === -1 || queryAllowed(req.originalUrl.slice(mark + 1)));
    if (allowed) return next();
    if (isApi(req)) throw badRequest(REFUSED_TEXT);
    notFoundPage(req, res, next);
  };
}

/** express.json's `verify`: the body's bytes must be UTF-8 before they are decoded. */
export function requireUtf8(_req: Request, _res: Response, body: Buffer): void {
  if (!isUtf8(body)) throw badRequest(REFUSED_TEXT);
}

/**
 * A multipart form's fields, which multer hands over as read byte for byte (`defCharset:
 * 'latin1'`: busboy's UTF-8 reading would hide bad bytes), read as UTF-8; undefined when one is
 * not UTF-8 or holds refused text. A field whose part named its own charset arrives decoded
 * already (a character past U+00FF shows it) and is left as it is.
 */
export function formFieldsAsUtf8(fields: unknown): unknown {
  if (typeof fields === 'string') {
    if (/[^\u0000-\u00ff]/.test(fields)) return isAllowedText(fields) ? fields : undefined;
    const bytes = Buffer.from(fields, 'latin1');
    if (!isUtf8(bytes)) return undefined;
    const text = bytes.toString('utf8');
    return isAllowedText(text) ? text : undefined;
  }
  if (fields === null || typeof fields !== 'object') return fields;
  // Nested only as deep as a field's name says (multer's `a[b][c]`), 20 fields at most.
  const read = Object.entries(fields).map(([key, value]) => [formFieldsAsUtf8(key), formFieldsAsUtf8(value)] as const);
  if (read.some(([key, value]) => key === undefined || value === undefined)) return undefined;
  return Array.isArray(fields) ? read.map(([, value]) => value) : Object.fromEntries(read);
}

/** After a body is parsed (JSON, or a form's fields): every string in it. */
export const refuseTextInBody: RequestHandler = (req, _res, next) => {
  if (!isAllowedValue(req.body)) throw badRequest(REFUSED_TEXT);
  next();
};
