// GET and HEAD /uploads/<name> from the bucket, answered as express.static answers them for the
// disk store (disk-store.ts): same caching headers, content type and status codes. The body is
// streamed from S3 to the client, never held whole in memory.
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { GetObjectCommandInput, GetObjectCommandOutput } from '@aws-sdk/client-s3';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { IMAGE_MAX_AGE_SECONDS, isImageName } from './image-store.ts';

const CACHE_CONTROL = `public, max-age=${IMAGE_MAX_AGE_SECONDS}, immutable`;

/** What is asked of the bucket: one object, with the request's conditions. */
export type ObjectRequest = Omit<GetObjectCommandInput, 'Bucket'>;
/** What the bucket answers: GetObject's answer, or HeadObject's (the same without a body). */
export type ObjectAnswer =
  Pick<GetObjectCommandOutput, 'ContentLength' | 'ContentRange' | 'ETag' | 'LastModified'> & { Body?: unknown };
/** GetObject, or HeadObject when `head`; throws S3's error (with its status) otherwise. */
export type FetchObject = (input: ObjectRequest, head: boolean) => Promise<ObjectAnswer>;

export function serveFromS3(fetchObject: FetchObject, log: Logger): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!isImageName(name)) return next();
    let object;
    try {
      object = await fetchObject({ Key: name, ...conditions(req) }, req.method === 'HEAD');
    } catch (err) {
      return answerFailure(err as S3Failure, req, res, next, log, name);
    }
    res.status(object.ContentRange ? 206 : 200);
    res.set({ 'Cache-Control': CACHE_CONTROL, 'Accept-Ranges': 'bytes' });
    if (object.LastModified) res.set('Last-Modified', object.LastModified.toUTCString());
    if (object.ETag) res.set('ETag', object.ETag);
    // By extension, as express.static does (every stored image is a .jpg).
    res.type(path.extname(name) || 'application/octet-stream');
    if (object.ContentLength !== undefined) res.set('Content-Length', String(object.ContentLength));
    if (object.ContentRange) res.set('Content-Range', object.ContentRange);
    const body = object.Body as Readable | undefined;
    if (!body) return res.end();
    await streamTo(body, res, log, name);
  };
}

type S3Failure = Error & {
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
  ActualObjectSize?: number;
};

/** What S3 refused, answered as express.static answers the same request for a file. */
function answerFailure(err: S3Failure, req: Request, res: Response, next: NextFunction, log: Logger, name: string): void {
  switch (err.$metadata?.httpStatusCode) {
    case 304: {
      // S3 names the ETag and date it compared; a fake may not, but a single If-None-Match
      // tag that matched is the ETag by definition.
      const headers = err.$response?.headers ?? {};
      const sent = req.get('if-none-match');
      const etag = headers.etag ?? (sent && !sent.includes(',') ? sent.trim() : undefined);
      res.set({ 'Cache-Control': CACHE_CONTROL, 'Accept-Ranges': 'bytes' });
      if (etag) res.set('ETag', etag);
      if (headers['last-modified']) res.set('Last-Modified', headers['last-modified']);
      res.status(304).end();
      return;
    }
    case 404: return next();
    case 412: return next(new HttpError(412, 'Precondition Failed'));
    case 416: return next(new HttpError(416, 'Range Not Satisfiable',
      err.ActualObjectSize === undefined ? {} : { 'Content-Range': `bytes */${err.ActualObjectSize}` }));
    default:
      log.error({ err, name }, 'could not read an image from S3');
      res.status(503).type('text/plain').send('Images are unavailable right now');
  }
}

/**
 * The request's conditions, for S3 to evaluate: a 304 or a range costs the bucket no full read.
 * If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3); a Range under If-Range,
 * or of several parts, is dropped to send the whole image, which is always a valid answer. A
 * request saying `Cache-Control: no-cache` gets the whole image, as express.static gives it.
 */
function conditions(req: Request): Omit<ObjectRequest, 'Key'> {
  const noCache = /(?:^|,)\s*no-cache\s*(?:,|$)/.test(req.get('cache-control') ?? '');
  const header = (name: string) => req.get(name)?.trim() || undefined;
  const date = (name: string) => {
    const value = header(name);
    const parsed = value ? new Date(value) : undefined;
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
  };
  const range = header('range');
  return {
    IfNoneMatch: noCache ? undefined : header('if-none-match'),
    IfModifiedSince: noCache || header('if-none-match') ? undefined : date('if-modified-since'),
    IfMatch: header('if-match'),
    IfUnmodifiedSince: header('if-match') ? undefined : date('if-unmodified-since'),
    Range: range && !range.includes(',') && !header('if-range') ? range : undefined,
  };
}

/** Pipes the object to the client; a client that leaves early stops the read from S3. */
async function streamTo(body: Readable, res: Response, log: Logger, name: string): Promise<void> {
  try {
    await pipeline(body, res);
  } catch (err) {
    // Most often the reader closed the page; the log says so only when asked for detail.
    log.debug({ err, name }, 'image stream from S3 ended early');
  }
}
