// Times every request for http_request_duration_seconds: one clock read when it arrives, one
// when its answer has gone, and one observation. The route label is the pattern that answered
// (`/api/posts/:id`), never the path itself: a label per article id or per scanner's guess would
// grow without end. Whatever no route pattern answered gets one of a few fixed labels.
import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics.registry.ts';
import { UPLOADS_URL } from '../uploads.ts';

/** Labels of the requests no Express route answered. */
export const UNMATCHED = 'unmatched';
export const STATIC = 'static';
export const UPLOADS = `${UPLOADS_URL}/*`;

/** The API's routers are mounted at /api (app.ts) and write their routes without it. */
const UNDER_API = /^\/api(?:[/?]|$)/i;

export function timeRequests(metrics: Metrics, pageRoute: (req: Request) => string | undefined): RequestHandler {
  return (req, res, next) => {
    // performance.now() is the monotonic high-resolution clock, as a double: no BigInt made.
    const started = performance.now();
    res.on('finish', () => {
      metrics.observeRequest(req.method, routeLabel(req, res, pageRoute), res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}

/** Each Express route's label, worked out at its first request: its place (in /api or not) never changes. */
const routeLabels = new WeakMap<object, string>();

/**
 * The Express route that answered, its mount point included; a rendered page's route as
 * pages.table.ts writes it (`/post/:id`); `/uploads/*`; `static` for the client's files and
 * shell; `unmatched` for everything else (an unknown API path, a page not found, a refused path).
 */
export function routeLabel(req: Request, res: Response, pageRoute: (req: Request) => string | undefined): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route?.path !== undefined) {
    const known = routeLabels.get(route);
    if (known !== undefined) return known;
    const pattern = patternOf(route.path, req.originalUrl.split('?')[0]!);
    const label = UNDER_API.test(req.originalUrl) && !/^\/api(?:\/|$)/i.test(pattern) ? `/api${pattern}` : pattern;
    // One route with several paths (feeds.routes.ts's three files) is labelled by the path taken.
    if (!Array.isArray(route.path)) routeLabels.set(route, label);
    return label;
  }
  if (UNDER_API.test(req.originalUrl)) return UNMATCHED;
  if (req.originalUrl.startsWith(`${UPLOADS_URL}/`)) return UPLOADS;
  return pageRoute(req) ?? (res.statusCode < 400 ? STATIC : UNMATCHED);
}

/** A route written as a string, as one of several (the one this path is), or as a RegExp (its
 * source). The request's path is its original one: the routers have taken off their mount point. */
function patternOf(route: unknown, path: string): string {
  if (typeof route === 'string') return route;
  if (route instanceof RegExp) return route.source;
  if (Array.isArray(route)) {
    const named = route.find((one) => typeof one === 'string' && one.toLowerCase() === path.toLowerCase());
    return named ?? route.map((one) => patternOf(one, path)).join('|');
  }
  return UNMATCHED;
}
