// GET /feed.xml · /feed.atom · /feed.json                 the site's 20 newest active articles as RSS 2.0,
//                                                         Atom 1.0 and JSON Feed 1.1 (docs/feeds.md)
// GET /beatnik/:username/feed.xml · .atom · .json         an author's (404 User not found)
// GET /hashtag/:tag/feed.xml · .atom · .json              a hashtag's (404 Hashtag not found)
// Each with ETag and Last-Modified (304 when the reader's copy is current), rendered once per
// change and kept beside the cached lists (cache/document-cache.ts).
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { createDocumentCache, sendDocument } from '../cache/document-cache.ts';
import { FEED_FILES, renderFeed, type FeedFormat, type FeedSource } from './feeds.render.ts';
import { authorFeed, hashtagFeed, siteFeed } from './feeds.service.ts';

/** Every feed of a busy site's authors and tags at once, in all three formats, fits. */
const FEEDS_CACHE_BYTES = 32 * 1024 * 1024;

export function feedsRoutes(ctx: AppContext): Router {
  const router = Router();
  const documents = createDocumentCache(ctx.readCache, { maxBytes: FEEDS_CACHE_BYTES });

  /** Sends the feed `key` names in the format `file` names; a file that is no feed is not ours. */
  const serve = async (req: Request, res: Response, next: NextFunction, file: string | undefined, key: string,
    source: () => Promise<FeedSource>) => {
    const format: FeedFormat | undefined = file === undefined ? undefined : FEED_FILES.get(file);
    if (format === undefined) return next();
    sendDocument(req, res, await documents.get(`${format} ${key}`, async () =>
      renderFeed(await source(), format, ctx.config.publicUrl)));
  };

  router.get(['/feed.xml', '/feed.atom', '/feed.json'], (req, res, next) =>
    serve(req, res, next, req.path.slice(1), 'site', () => siteFeed(ctx)));

  router.get('/beatnik/:username/:file', (req, res, next) =>
    serve(req, res, next, req.params.file, `author ${req.params.username}`, () => authorFeed(ctx, req.params.username)));

  router.get('/hashtag/:tag/:file', (req, res, next) =>
    serve(req, res, next, req.params.file, `hashtag ${req.params.tag}`, () => hashtagFeed(ctx, req.params.tag)));

  return router;
}
