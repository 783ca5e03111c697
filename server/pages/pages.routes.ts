// GET /, /post/:id, /ranks, /authors, /beatnik/:username (pages.table.ts): the page rendered
// with React on the server (client/ssr.tsx) from its first reads, with its head and its data,
// for the browser to hydrate; a missing article or author is a 404 with the page that says so.
// The HTML is the same for every reader (the server never knows who reads: the session lives in
// the browser), so it is cached like the public lists and emptied by the same writes
// (cache/read-cache.ts); an article served from the cache still counts its visit. Any other
// path goes on to the built client (static.ts): the signed-in screens render in the browser.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { matchRoute } from 'wouter';
import { parse as parseRoute } from 'regexparam';
import { renderApp } from '../../client/ssr.tsx';
import { passingEntry, sendEntry } from '../cache/read-cache.ts';
import type { AppContext } from '../context.ts';
import { countVisitorRead } from '../posts/posts.service.ts';
import { visitorKey } from '../posts/posts.visitors.ts';
import { pageDocument, readShell, type Shell } from './pages.document.ts';
import { renderHead } from './pages.head.ts';
import { PAGES, type PageEntry, type PageLoad, type PageRequest } from './pages.table.ts';

const HTML = 'text/html; charset=utf-8';

export function pageRoutes(ctx: AppContext, clientDir: string): RequestHandler {
  const index = path.join(clientDir, 'index.html');
  const shell = existsSync(index) ? readShell(readFileSync(index, 'utf8')) : undefined;
  if (!shell) return (_req, _res, next) => next();
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = matchPage(req.path);
    if (!found) return next();
    const { entry, params } = found;
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const page: PageRequest = { params, search: entry.search?.(query) ?? '', visitor: visitorKey(ctx, req, undefined) };
    res.setHeader('Cache-Control', 'no-cache');
    const key = `page ${req.path}${page.search}`;
    const cached = ctx.readCache?.lookup(key);
    if (cached) {
      const visit = cached.memo as PageLoad['visit'];
      if (visit) await countVisitorRead(ctx, visit, page.visitor);
      return sendEntry(req, res, cached);
    }
    const mark = ctx.readCache?.mark() ?? Number.NaN;
    let rendered: { load: PageLoad; html: Buffer };
    try {
      rendered = await render(ctx, shell, entry, page, req.path);
    } catch (err) {
      // The browser can still build the page from the API, and say what fails there.
      ctx.log.error({ err, request_id: req.id, path: req.path }, 'server rendering failed: the page goes out unrendered');
      return next();
    }
    const { load, html } = rendered;
    if (load.status !== 200) return sendEntry(req, res.status(load.status), passingEntry(html, HTML));
    return sendEntry(req, res, ctx.readCache?.store(key, mark, html, HTML, load.visit) ?? passingEntry(html, HTML));
  };
}

/** The page whose route the path takes, and the route's parameters, matched as wouter does in the
 * browser (the path decoded alike, a trailing slash and letter case allowed). */
function matchPage(rawPath: string): { entry: PageEntry; params: Record<string, string> } | undefined {
  const path = unescapePath(rawPath);
  for (const entry of PAGES) {
    const [matches, params] = matchRoute(parseRoute, entry.route, path);
    if (matches) return { entry, params: (params ?? {}) as Record<string, string> };
  }
  return undefined;
}

/** wouter's own decoding of location.pathname: decodeURI, and the text as it is when that fails. */
function unescapePath(path: string): string {
  try {
    return path.includes('%') ? decodeURI(path) : path;
  } catch {
    return path;
  }
}

async function render(ctx: AppContext, shell: Shell, entry: PageEntry, page: PageRequest, path: string) {
  const load = await entry.load(ctx, page);
  const data = { renderedAt: Date.now(), reads: load.answers };
  const app = renderApp(path, page.search, data);
  const html = pageDocument(shell, renderHead(load.head, ctx.config.publicUrl), app, data);
  return { load, html: Buffer.from(html) };
}
