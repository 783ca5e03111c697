// The Express application, without listen(): main.ts serves it, tests start it on port 0.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';
import { authenticate } from './session.ts';
import type { ReadCache } from './cache/read-cache.ts';
import { compress } from './compress.ts';
import type { AppContext } from './context.ts';
import { errorHandler, notFound } from './errors.ts';
import { feedsRoutes } from './feeds/feeds.routes.ts';
import { forwardedForIgnored, requestLog } from './log.ts';
import { MUTABLE_LISTS, markMutedReaders } from './mutes/mutes.readers.ts';
import { pageRoutes } from './pages/pages.routes.ts';
import { anonymousArticleRead, answersOwnEncoding } from './posts/posts.routes.ts';
import { rejectMalformedPaths } from './paths.ts';
import { refuseTextInAddress, refuseTextInBody, requireUtf8 } from './refused-text.ts';
import { securityHeaders } from './security-headers.ts';
import { sitemapRoutes } from './sitemap/sitemap.routes.ts';
import { oneClickUnsubscribeRoutes } from './mail-notices/mail-notices.routes.ts';
import { writeLimit } from './rate-limits.ts';
import { apiRouters, CACHED_LISTS, CACHED_PER_ADDRESS } from './routes.ts';
import { clientHandler } from './static.ts';
import { timeRequests } from './metrics/metrics.http.ts';
import { METRICS_PATH, metricsRoute } from './metrics/metrics.routes.ts';
import { UPLOADS_URL } from './uploads.ts';

/** The project root: the nearest folder above this module holding package.json (from server/
 * when run from source, from dist/server/ when run as the production bundle). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const CLIENT_DIR = path.join(projectRoot(), 'dist/client');

export function createApp(ctx: AppContext, clientDir = CLIENT_DIR): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The public pages rendered on the server (the rest of the paths are the built client's).
  const pages = pageRoutes(ctx, clientDir);
  const missing: RequestHandler = (req, res, next) => pages.missing(req, res, () => plainNotFound(req, res, next));
  // Timed from the first middleware on, when metrics are on (METRICS_TOKEN).
  if (ctx.metrics) app.use(timeRequests(ctx.metrics, pages.routeOf));
  // X-Forwarded-For names the client only when TRUSTED_PROXY says who may set it: otherwise
  // anyone could pick their own address and escape every throttle.
  app.set('trust proxy', ctx.config.trustProxy);
  if (ctx.config.trustProxy === false) app.use(forwardedForIgnored(ctx.log));

  app.use(requestIds(), requestLog(ctx.log), rejectMalformedPaths, refuseTextInAddress(missing));
  // Before the cache and compression ask whether a list is cached: a muter's lists are their own.
  app.get([...MUTABLE_LISTS], markMutedReaders(ctx));
  app.use(compress((req) => answersOwnEncoding(req) || (ctx.readCache?.has(req) ?? false) || pages.cached(req)));
  app.use(securityHeaders(ctx.config));
  // ActivityPub (FEDERATION=on): Fedify's addresses, and the actor or article JSON of a profile or
  // article page asked for by another server; a browser's request for the page goes on.
  if (ctx.federation) app.use(ctx.federation.routes());
  // Outside /api: no throttle, session or body parser; never a page, so never a visit.
  app.get(METRICS_PATH, metricsRoute(ctx, missing));
  // An article read without a token, and a fresh cached list (or an article's rank, or an
  // author's mojo ledger), are answered here, before the API's body parser and session: they are
  // public and the same for every reader. A list's miss goes on to its route, which fills the
  // cache. The article first: its path never matches a list's, and it passes the lists' patterns.
  app.get('/api/posts/:id', anonymousArticleRead(ctx));
  // One route per address, so that a cached answer is labelled with its route (metrics/metrics.http.ts).
  if (ctx.readCache) {
    for (const route of [...Object.keys(CACHED_LISTS), ...CACHED_PER_ADDRESS.map((address) => address.route)]) app.get(route, ctx.readCache.middleware);
  }

  const api = express.Router();
  api.use(express.json({ limit: '100kb', verify: requireUtf8 }), refuseTextInBody, authenticate(ctx), writeLimit(ctx));
  if (ctx.readCache) api.use(invalidateOnWrites(ctx.readCache));
  api.use(...apiRouters(ctx));
  api.use((req) => {
    throw notFound(`No API route for ${req.method} ${req.baseUrl}${req.path}`);
  });
  app.use('/api', api);
  app.use(feedsRoutes(ctx), sitemapRoutes(ctx), oneClickUnsubscribeRoutes(ctx));

  app.use(UPLOADS_URL, ctx.images.serve, plainNotFound);
  app.use(pages.handler);
  app.use(clientHandler(clientDir, pages.notFound, pages.shell), plainNotFound);
  app.use(errorHandler(ctx.log));
  return app;
}

/**
 * A write makes cached lists stale when it starts (reads running beside it are not stored) and
 * again when it ends (what was stored meanwhile is dropped).
 */
function invalidateOnWrites(cache: ReadCache): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    cache.invalidate();
    res.on('finish', () => cache.invalidate());
    next();
  };
}

const plainNotFound: RequestHandler = (req, res) => {
  res.status(404).type('text/plain').send(`Not found: ${req.originalUrl.split('?')[0]}`);
};

function requestIds(): RequestHandler {
  return (req, res, next) => {
    req.id = randomUUID();
    res.set('X-Request-Id', req.id);
    next();
  };
}
