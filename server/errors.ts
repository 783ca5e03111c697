// One error type for every expected failure, and the one middleware that writes every error.
import type { ErrorRequestHandler } from 'express';
import multer from 'multer';
import type { Logger } from './log.ts';

export class HttpError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly headers: Record<string, string>;

  constructor(status: number, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.headers = headers;
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Not authenticated') =>
  new HttpError(401, detail, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);

/** Throws the 400 for a rule's problem (shared/); nothing when there is none. */
export function badRequestIf(problem: string | undefined): void {
  if (problem !== undefined) throw badRequest(problem);
}

/** Translates what libraries throw on bad input into an HttpError; anything else stays a bug. */
function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  // decodeURIComponent on a path or query part that is not valid percent-encoding.
  if (err instanceof URIError) return badRequest('The URL has an invalid percent-encoding');
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return new HttpError(413, 'File is too large');
    return badRequest(`Invalid upload: ${err.message}`);
  }
  const e = err as { type?: string; status?: number; expose?: boolean; message?: string };
  if (e?.type === 'entity.parse.failed') return badRequest('Request body is not valid JSON');
  if (e?.type === 'entity.too.large') return new HttpError(413, 'Request body is too large');
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
    return new HttpError(415, 'Unsupported request encoding');
  }
  // Other body-parser and busboy errors carry a 4xx status and a safe message.
  if (e?.expose && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return new HttpError(e.status, e.message ?? 'Bad request');
  }
  if (e?.message === 'Malformed part header' || e?.message === 'Unexpected end of form' ||
      e?.message === 'Multipart: Boundary not found') {
    return badRequest('Malformed multipart body');
  }
  return undefined;
}

/** A 503's detail when PostgreSQL cannot be reached or ended our connection (docs/operations.md). */
export const DATABASE_UNAVAILABLE = 'The database is unavailable right now; please try again in a moment';
/** A 503's detail when the database's disk is full: nothing was written (docs/operations.md). */
export const DISK_FULL = 'The server is out of disk space; please try again later';

/** SQLSTATEs and socket errors of a database that is down, restarting, or ended our session. */
const CONNECTION_CODES = new Set([
  '57P01', '57P02', '57P03', // admin_shutdown (pg_terminate_backend, a fast stop), crash_shutdown, cannot_connect_now
  '53300', // too_many_connections
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);

/** pg's own errors for a lost connection carry no code. */
const CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly', 'Connection terminated', 'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect', 'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/**
 * The database cannot serve this request through no fault of it: PostgreSQL unreachable,
 * restarting or ending our sessions (class 08 is every connection exception), or a full disk
 * (SQLITE_FULL, PostgreSQL's 53100). Read from the error alone, as lostRace below.
 */
export function databaseUnavailable(err: unknown): HttpError | undefined {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code === 'SQLITE_FULL' || code === '53100') return new HttpError(503, DISK_FULL);
  if (CONNECTION_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || CONNECTION_MESSAGES.has(e?.message as string)) {
    return new HttpError(503, DATABASE_UNAVAILABLE);
  }
  return undefined;
}

export const RACE_MESSAGE = 'Something this request relies on changed at the same moment; please try again';

/**
 * The database refused a write that lost a race: what it pointed at was deleted since it was
 * checked (an account removed while one of its own requests ran), or what it claimed was taken
 * meanwhile (two sign-ups of one address at once), or PostgreSQL cancelled it to break a
 * deadlock (40P01: writes take users' rows in id order, but an account's removal and a rating
 * of one of its articles still meet in opposite orders). Nothing was written. SQLite's codes
 * and PostgreSQL's SQLSTATEs, read from the error alone: no driver is loaded here.
 */
function lostRace(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === '23503' || code === '23505' || code === '40P01' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
    || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (lostRace(err)) {
      // Rare, and worth a look if it is not: a bug would show here too.
      log.warn({ err, request_id: req.id, method: req.method, path: req.path }, 'a write lost a race');
      res.status(409).json({ detail: RACE_MESSAGE });
      return;
    }
    const unavailable = databaseUnavailable(err);
    if (unavailable) {
      // An outage, not a bug: the cause in one line, without a stack (the request line follows).
      const { code, message } = err as { code?: string; message?: string };
      log.warn({ code, reason: message, request_id: req.id, method: req.method, path: req.path }, unavailable.detail);
      res.status(503).json({ detail: unavailable.detail });
      return;
    }
    const httpError = toHttpError(err);
    if (httpError) {
      res.status(httpError.status).set(httpError.headers).json({ detail: httpError.detail });
      return;
    }
    log.error({ err, request_id: req.id, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ detail: `Internal server error (request ${req.id})` });
  };
}
