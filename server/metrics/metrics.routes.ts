// GET /metrics   Prometheus' text format, to `Authorization: Bearer <METRICS_TOKEN>` (docs/operations.md,
//                Metrics); without that bearer, or without METRICS_TOKEN: the 404 any unknown
//                address gets (DESIGN.md: '404 without it')
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';

export const METRICS_PATH = '/metrics';

/** `notFound` answers while metrics are off, as it answers any address no route takes. */
export function metricsRoute(ctx: AppContext, notFound: RequestHandler): RequestHandler {
  const { metrics } = ctx;
  const token = ctx.config.metricsToken;
  if (!metrics || token === null) return notFound;
  // Compared as digests of equal length, in constant time: neither the token's length nor its
  // first wrong character shows in how long a refusal takes.
  const expected = digest(token);
  return async (req, res, next) => {
    const sent = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    // To whoever lacks the token, metrics are off: nothing says the address is there.
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) return notFound(req, res, next);
    const body = await metrics.registry.metrics();
    // Every scrape is a new reading: no cache on the way may keep one.
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
