// Throttles for password guessing and sign-up floods: per client address and per account.
import type { Request, RequestHandler } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { bodyOf, rawText } from '../http.ts';
import { normalizeEmail } from '../users/users.names.ts';

const MINUTE = 60_000;

/** 429 with a detail that says when to try again, written by the shared error handler. */
const tooMany: Options['handler'] = (req, _res, next, options) => {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + options.windowMs) - Date.now()) / 1000));
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  next(new HttpError(429, `Too many attempts. Try again in ${wait}.`, { 'Retry-After': String(seconds) }));
};

function limiter(config: Config, options: Partial<Options>): RequestHandler {
  if (!config.rateLimits) return (_req, _res, next) => next();
  return rateLimit({
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: tooMany,
    ...options,
  });
}

export interface AuthLimits {
  login: RequestHandler[];
  register: RequestHandler[];
}

export function authLimits(config: Config): AuthLimits {
  return {
    login: [
      limiter(config, { windowMs: 15 * MINUTE, limit: 30 }),
      // Failed attempts on one account, wherever they come from; a success does not count.
      limiter(config, {
        windowMs: 15 * MINUTE,
        limit: 5,
        skipSuccessfulRequests: true,
        keyGenerator: (req) => `account:${normalizeEmail(rawText(bodyOf(req), 'email') ?? '')}`,
        validate: { keyGeneratorIpFallback: false },
      }),
    ],
    register: [limiter(config, { windowMs: 60 * MINUTE, limit: 20 })],
  };
}
