// multer for the two multipart forms: one optional image file plus text fields, held in memory.
// Only a signed-in, unbanned user's form is read at all (DESIGN.md, Edges).
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { requireUser } from '../session.ts';
import { HttpError, badRequest } from '../errors.ts';
import { REFUSED_TEXT, formFieldsAsUtf8 } from '../refused-text.ts';

/** How long a refused body may keep arriving after the answer before the connection is dropped. */
const LINGER_MS = 1000;

/**
 * Accepts `field` as the only file, up to maxBytes; 413 with `tooLargeDetail` beyond it.
 * A request without a valid token gets its 401 (a banned user's its 403) before a byte of the
 * body is parsed, so nobody can make the server hold megabytes it will throw away.
 */
export function singleImageUpload(field: string, maxBytes: number, tooLargeDetail: string): RequestHandler {
  // defCharset (multer 2, not in its types): the fields' bytes as sent, for formFieldsAsUtf8 to
  // read as UTF-8 strictly, where busboy's reading would turn bad bytes into U+FFFD unseen.
  const options: multer.Options & { defCharset: string } = {
    storage: multer.memoryStorage(),
    defCharset: 'latin1',
    limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 100 * 1024, parts: 25 },
  };
  const parse = multer(options).single(field);
  return (req, res, next) => {
    try {
      requireUser(req);
    } catch (err) {
      hangUpOnUnreadBody(req, res);
      return next(err);
    }
    parse(req, res, (err: unknown) => {
      if (!err) {
        // A JSON body (multer reads only forms) is checked already; a form's fields alike here.
        if (!req.is('multipart/form-data')) return next();
        const fields = formFieldsAsUtf8(req.body);
        if (fields === undefined) return next(badRequest(REFUSED_TEXT));
        req.body = fields;
        if (req.file) uploadedBy.set(req.file, req);
        return next();
      }
      hangUpOnUnreadBody(req, res);
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, tooLargeDetail));
        if (err.code === 'LIMIT_UNEXPECTED_FILE') return next(badRequest(`Only one file, in the "${field}" field, is accepted`));
        return next(badRequest(`Invalid form: ${err.message}`));
      }
      next(err);
    });
  };
}

/** Each upload's request, for clientLeft. */
const uploadedBy = new WeakMap<Express.Multer.File, Request>();

/**
 * Whether the client that sent this upload has hung up (it gave up waiting on a slow image
 * store): what it asked for must then not happen later behind its back, or its retry would
 * make it twice.
 */
export function clientLeft(file: Express.Multer.File): boolean {
  return uploadedBy.get(file)?.socket.destroyed ?? false;
}

/**
 * After an answer sent before the body was read, Node goes on reading and discarding what the
 * client sends, for as long as it sends. That is kept short: LINGER_MS lets a client finish
 * writing and read the answer rather than meet a reset (a lingering close, RFC 9112 §9.6); a
 * client still sending after that is cut off.
 */
function hangUpOnUnreadBody(req: Request, res: Response): void {
  res.once('finish', () => {
    if (req.complete) return;
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    req.once('end', () => clearTimeout(timer));
  });
}
