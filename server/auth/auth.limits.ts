// Throttles for password guessing and sign-up floods: per client address and per account.
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';
import { bodyOf, rawText } from '../http.ts';
import { MINUTE, limiter } from '../rate-limits.ts';
import { normalizeEmail } from '../users/users.names.ts';

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
