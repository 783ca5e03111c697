// multer for the two multipart forms: one optional image file plus text fields, held in memory.
import type { RequestHandler } from 'express';
import multer from 'multer';
import { HttpError, badRequest } from '../errors.ts';

export const ARTICLE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** Accepts `field` as the only file, up to maxBytes; 413 with `tooLargeDetail` beyond it. */
export function singleImageUpload(field: string, maxBytes: number, tooLargeDetail: string): RequestHandler {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 100 * 1024, parts: 25 },
  }).single(field);
  return (req, res, next) => {
    parse(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, tooLargeDetail));
        if (err.code === 'LIMIT_UNEXPECTED_FILE') return next(badRequest(`Only one file, in the "${field}" field, is accepted`));
        return next(badRequest(`Invalid form: ${err.message}`));
      }
      next(err);
    });
  };
}
