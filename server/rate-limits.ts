// Request throttles (express-rate-limit), answered as 429 {detail} saying when to retry.
// RATE_LIMITS=off turns every one of them into a no-op.
import type { Request, RequestHandler } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import type { Config } from './config.ts';
import { HttpError } from './errors.ts';

export const MINUTE = 60_000;

/** The 429 of every throttle: when to retry, in words and in Retry-After. */
export function tooManyAttempts(waitMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return new HttpError(429, `Too many attempts. Try again in ${wait}.`, { 'Retry-After': String(seconds) });
}

const tooMany: Options['handler'] = (req, _res, next, options) => {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  next(tooManyAttempts((resetTime?.getTime() ?? Date.now() + options.windowMs) - Date.now()));
};

export function limiter(config: Config, options: Partial<Options>): RequestHandler {
  if (!config.rateLimits) return (_req, _res, next) => next();
  return rateLimit({
    standardHeaders: 'draft-7', legacyHeaders: false, handler: tooMany, ...options,
    // Ignoring X-Forwarded-For unless TRUSTED_PROXY names a proxy is deliberate, not a mistake
    // to print a stack trace about (log.ts says it once, in one line).
    validate: { xForwardedForHeader: false, ...(typeof options.validate === 'object' ? options.validate : {}) },
  });
}

/** Signed-in writes are counted per account, anonymous ones per address. */
function writerKey(req: Request): string {
  const auth = req.auth;
  return auth && 'user' in auth ? `user:${auth.user.id}` : `ip:${req.ip ?? ''}`;
}

/** Every API write: generous for people, a wall for scripts flooding the site. */
export function writeLimit(config: Config): RequestHandler {
  const limit = limiter(config, {
    windowMs: MINUTE, limit: 60, keyGenerator: writerKey, validate: { keyGeneratorIpFallback: false },
  });
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : limit(req, res, next));
}

/** Publishing is rarer still: 20 new articles an hour per account. */
export function publishLimit(config: Config): RequestHandler {
  return limiter(config, {
    windowMs: 60 * MINUTE, limit: 20, keyGenerator: writerKey, validate: { keyGeneratorIpFallback: false },
  });
}
