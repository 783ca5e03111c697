// Request throttles (express-rate-limit), answered as 429 {detail} saying when to retry.
// RATE_LIMITS=off turns every one of them into a no-op. On SQLite one process counts in memory;
// on PostgreSQL several instances may serve the site, and count together in the database.
import type { Request, RequestHandler } from 'express';
import { rateLimit, type Options, type Store } from 'express-rate-limit';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from './config.ts';
import { dialectOf } from './db.ts';
import type { DB } from './schema.ts';
import { HttpError } from './errors.ts';
import { postgresCounters } from './postgres/postgres.counters.ts';

/** What a throttle needs: whether throttling is on, and the database whose instances count together. */
export interface ThrottleContext {
  readonly config: Config;
  readonly db: DB;
}

/** Makes a shared counter (rate-limiter-flexible): its name, the key prefix, and its window in seconds. */
export type CounterFactory = (name: string, seconds: number) => RateLimiterAbstract;

/** Counters all instances share on PostgreSQL; none on SQLite, which one process serves. */
export function sharedCounters(db: DB): CounterFactory | undefined {
  return dialectOf(db) === 'postgres' ? postgresCounters(db) : undefined;
}

/** express-rate-limit's store over a shared counter: the same windows as its memory store. */
class SharedStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  readonly #counter: RateLimiterAbstract;

  constructor(prefix: string, counter: RateLimiterAbstract) {
    this.prefix = prefix;
    this.#counter = counter;
  }

  async increment(key: string) {
    const count = await this.#counter.penalty(key);
    return { totalHits: count.consumedPoints, resetTime: new Date(Date.now() + count.msBeforeNext) };
  }

  async decrement(key: string) {
    await this.#counter.reward(key);
  }

  async resetKey(key: string) {
    await this.#counter.delete(key);
  }
}

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

/** A throttle named `name`: the name keeps its counts apart from the other throttles' when shared. */
export function limiter(ctx: ThrottleContext, name: string, options: Partial<Options> & { windowMs: number }): RequestHandler {
  if (!ctx.config.rateLimits) return (_req, _res, next) => next();
  const counters = sharedCounters(ctx.db);
  return rateLimit({
    standardHeaders: 'draft-7', legacyHeaders: false, handler: tooMany, ...options,
    ...(counters ? { store: new SharedStore(name, counters(name, options.windowMs / 1000)) } : {}),
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
export function writeLimit(ctx: ThrottleContext): RequestHandler {
  const limit = limiter(ctx, 'write', {
    windowMs: MINUTE, limit: 60, keyGenerator: writerKey, validate: { keyGeneratorIpFallback: false },
  });
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : limit(req, res, next));
}

/** Publishing is rarer still: 20 new articles an hour per account. */
export function publishLimit(ctx: ThrottleContext): RequestHandler {
  return limiter(ctx, 'publish', {
    windowMs: 60 * MINUTE, limit: 20, keyGenerator: writerKey, validate: { keyGeneratorIpFallback: false },
  });
}

/** Reports: a reader with something to say says it a few times, not hundreds (20 an hour per account). */
export function reportLimit(ctx: ThrottleContext): RequestHandler {
  return limiter(ctx, 'report', {
    windowMs: 60 * MINUTE, limit: 20, keyGenerator: writerKey, validate: { keyGeneratorIpFallback: false },
  });
}

/** Previews of Markdown (POST /api/preview): a writer previews a few times a minute (30 per account). */
export function previewLimit(ctx: ThrottleContext): RequestHandler {
  return limiter(ctx, 'preview', {
    windowMs: MINUTE, limit: 30, keyGenerator: writerKey, validate: { keyGeneratorIpFallback: false },
  });
}
