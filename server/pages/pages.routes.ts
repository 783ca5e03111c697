// GET /, /post/:id, /ranks, /authors, /beatnik/:username, /search (pages.table.ts): the page rendered
// with React on the server (client/ssr.tsx) from its first reads, with its head and its data,
// for the browser to hydrate; a missing article or author is a 404 with the page that says so.
// The HTML is the same for every reader (the server never knows who reads: the session lives in
// the browser), so it is cached like the public lists and emptied by the same writes
// (cache/read-cache.ts); an article served from the cache still counts its visit. The signed-in
// screens' paths go on to the built client (static.ts) and render in the browser; a path no route
// of the app takes gets the not-found page with a 404 (`notFound`, asked by static.ts once it is
// no file of the bundle).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import { matchRoute } from 'wouter';
import { parse as parseRoute } from 'regexparam';
import { passingEntry, sendEntry } from '../cache/read-cache.ts';
import type { AppContext } from '../context.ts';
import { countVisitorRead } from '../posts/posts.read.service.ts';
import { visitorKey } from '../posts/posts.visitors.ts';
import { pageDocument, readShell, shellDocument, type Shell } from './pages.document.ts';
import { renderHead } from './pages.head.ts';
import { escapeHtml } from './pages.escape.ts';
import { siteInfo } from '../site/site.service.ts';
import type { SiteInfo } from '../site/site.view.ts';
import { siteDescription } from '../../shared/site.ts';
import { ROUTES } from '../../client/routes.ts';
import { NOT_FOUND_PAGE, PAGES, type PageEntry, type PageLoad, type PageRequest } from './pages.table.ts';

const HTML = 'text/html; charset=utf-8';

export interface PageRoutes {
  handler: RequestHandler;
  /** A fresh copy of this request's page is cached: the compression middleware stays out of its way. */
  cached(req: Request): boolean;
  /** A path no route of the app takes: the not-found page and a 404; any other goes on (`next`). */
  notFound: RequestHandler;
  /** The not-found page and a 404, whatever the path (one that can name nothing: refused-text.ts). */
  missing: RequestHandler;
  /** The document of a screen the browser renders: the site's name and settings in it (`next` without a shell). */
  shell: RequestHandler;
  /** The route of the page this request asks for, as pages.table.ts writes it (`/post/:id`), if any. */
  routeOf(req: Request): string | undefined;
}

/** A request for one of the pages: which, with what, and its cache key. */
interface Wanted {
  entry: PageEntry;
  params: Record<string, string>;
  /** The query as the page reads it. */
  search: string;
  key: string;
}

export function pageRoutes(ctx: AppContext, clientDir: string): PageRoutes {
  const index = path.join(clientDir, 'index.html');
  const shell = existsSync(index) ? readShell(readFileSync(index, 'utf8')) : undefined;
  if (!shell) {
    const passOn: RequestHandler = (_req, _res, next) => next();
    return { handler: passOn, cached: () => false, notFound: passOn, missing: passOn, shell: passOn, routeOf: () => undefined };
  }
  // Asked first by the compression middleware, then by the handler: worked out once a request.
  const wanted = new WeakMap<Request, Wanted | undefined>();
  const wantedBy = (req: Request): Wanted | undefined => {
    if (wanted.has(req)) return wanted.get(req);
    const found = req.method === 'GET' || req.method === 'HEAD' ? wantedPage(req) : undefined;
    wanted.set(req, found);
    return found;
  };

  const handler: RequestHandler = async (req, res, next) => {
    const want = wantedBy(req);
    if (!want) return next();
    res.setHeader('Cache-Control', 'no-cache');
    const cached = ctx.readCache?.lookup(want.key, 'pages');
    if (cached) {
      const visit = cached.memo as PageLoad['visit'];
      if (visit) await countVisitorRead(ctx, visit, visitorKey(ctx, req, undefined));
      return sendEntry(req, res, cached);
    }
    const mark = ctx.readCache?.mark() ?? Number.NaN;
    const site = await siteInfo(ctx);
    const page: PageRequest = { params: want.params, search: want.search, visitor: visitorKey(ctx, req, undefined), site };
    let rendered: { load: PageLoad; html: Buffer };
    try {
      rendered = await render(ctx, shell, want.entry, page, req.path);
    } catch (err) {
      // The browser can still build the page from the API, and say what fails there.
      ctx.log.error({ err, request_id: req.id, path: req.path }, 'server rendering failed: the page goes out unrendered');
      return next();
    }
    const { load, html } = rendered;
    if (load.status !== 200) return sendEntry(req, res.status(load.status), passingEntry(html, HTML));
    return sendEntry(req, res, ctx.readCache?.store(want.key, mark, html, HTML, load.visit) ?? passingEntry(html, HTML));
  };

  // Not cached: any path at all lands here, and the cache would keep each one.
  const missing: RequestHandler = async (req, res, next) => {
    try {
      const page: PageRequest = { params: {}, search: '', visitor: '', site: await siteInfo(ctx) };
      const { load, html } = await render(ctx, shell, NOT_FOUND_PAGE, page, req.path);
      res.setHeader('Cache-Control', 'no-cache');
      sendEntry(req, res.status(load.status), passingEntry(html, HTML));
    } catch (err) {
      ctx.log.error({ err, request_id: req.id, path: req.path }, 'server rendering failed: the page goes out unrendered');
      next();
    }
  };

  const notFound: RequestHandler = (req, res, next) =>
    appRoutePaths.some((route) => routeTakes(route, req.path)) ? next() : missing(req, res, next);

  // The same for every screen: kept like a rendered page, emptied by the writes that empty those.
  const shellPage: RequestHandler = async (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    const cached = ctx.readCache?.lookup(SHELL_KEY);
    if (cached) return sendEntry(req, res, cached);
    const mark = ctx.readCache?.mark() ?? Number.NaN;
    const site = await siteInfo(ctx);
    const html = Buffer.from(shellDocument(shell, shellHead(site), site));
    sendEntry(req, res, ctx.readCache?.store(SHELL_KEY, mark, html, HTML) ?? passingEntry(html, HTML));
  };

  return {
    handler,
    notFound,
    missing,
    shell: shellPage,
    routeOf: (req) => wantedBy(req)?.entry.route,
    cached(req) {
      const want = wantedBy(req);
      return want !== undefined && ctx.readCache?.lookup(want.key) !== undefined;
    },
  };
}

const SHELL_KEY = 'page shell';

/** A screen's head until its own script sets the title: the site's name and description. */
function shellHead(site: SiteInfo): string {
  return `<title>${escapeHtml(site.name)}</title>\n    <meta name="description" content="${escapeHtml(siteDescription(site))}">`;
}

function wantedPage(req: Request): Wanted | undefined {
  const found = matchPage(req.path);
  if (!found) return undefined;
  const mark = req.originalUrl.indexOf('?');
  const search = found.entry.search?.(mark === -1 ? '' : req.originalUrl.slice(mark)) ?? '';
  return { ...found, search, key: `page ${req.path}${search}` };
}

/** Each route parsed once, as wouter's own parser parses it. */
const parsed = new Map<string, { keys: string[]; pattern: RegExp }>();
function parser(route: string): { keys: string[]; pattern: RegExp } {
  let found = parsed.get(route);
  if (!found) parsed.set(route, found = parseRoute(route));
  return found;
}

/** Whether the route takes the path, matched as wouter does in the browser (the path decoded
 * alike, a trailing slash and letter case allowed); its parameters when it does. */
function routeTakes(route: string, rawPath: string): Record<string, string> | undefined {
  const [matches, params] = matchRoute(parser, route, unescapePath(rawPath));
  return matches ? (params ?? {}) as Record<string, string> : undefined;
}

/** The page whose route the path takes, and the route's parameters. */
function matchPage(path: string): { entry: PageEntry; params: Record<string, string> } | undefined {
  for (const entry of PAGES) {
    const params = routeTakes(entry.route, path);
    if (params) return { entry, params };
  }
  return undefined;
}

const appRoutePaths: readonly string[] = Object.values(ROUTES);

/** wouter's own decoding of location.pathname: decodeURI, and the text as it is when that fails. */
function unescapePath(path: string): string {
  try {
    return path.includes('%') ? decodeURI(path) : path;
  } catch {
    return path;
  }
}

/** react-dom/server and the app's components, loaded with the first page rendered: a server that
 * has rendered none (just started, or answering the API alone) neither loads nor holds them. */
let ssr: Promise<typeof import('../../client/ssr.tsx')> | undefined;

async function render(ctx: AppContext, shell: Shell, entry: PageEntry, page: PageRequest, path: string) {
  const load = await entry.load(ctx, page);
  const data = { renderedAt: Date.now(), reads: load.answers };
  const app = (await (ssr ??= import('../../client/ssr.tsx'))).renderApp(path, page.search, data, page.site);
  const html = pageDocument(shell, renderHead(load.head, ctx.config.publicUrl, page.site.name), app, data, page.site);
  return { load, html: Buffer.from(html) };
}
