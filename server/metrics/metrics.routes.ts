// GET /metrics   Prometheus' text format, to `Authorization: Bearer <METRICS_TOKEN>` (docs/operations.md,
//                Metrics); a missing or wrong token: 401 {"detail"}; without METRICS_TOKEN: the 404
//                any unknown address gets
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../errors.ts';

export const METRICS_PATH = '/metrics';
export const METRICS_TOKEN_WRONG = 'The metrics token is missing or wrong';

/** `notFound` answers while metrics are off, as it answers any address no route takes. */
export function metricsRoute(ctx: AppContext, notFound: RequestHandler): RequestHandler {
  const { metrics } = ctx;
  const token = ctx.config.metricsToken;
  if (!metrics || token === null) return notFound;
  // Compared as digests of equal length, in constant time: neither the token's length nor its
  // first wrong character shows in how long a refusal takes.
  const expected = digest(token);
  return async (req, res) => {
    const sent = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) throw unauthorized(METRICS_TOKEN_WRONG);
    const body = await metrics.registry.metrics();
    // Every scrape is a new reading: no cache on the way may keep one.
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
