// Request paths that cannot be decoded (`/api/posts/%FF`, `/%E0%A4%A`) name nothing: they are
// refused with a 400 before any router tries to decode them.
import type { RequestHandler } from 'express';
import { badRequest } from './errors.ts';

export const MALFORMED_PATH = 'The URL path has an invalid percent-encoding';

export const rejectMalformedPaths: RequestHandler = (req, _res, next) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    throw badRequest(MALFORMED_PATH);
  }
  next();
};
