// Throttles for password guessing and sign-up floods (DESIGN.md, Edges). RATE_LIMITS=off turns
// both off. On PostgreSQL every instance counts in the same place (rate-limits.ts).
import type { RequestHandler } from 'express';
import { MINUTE, limiter, sharedCounters, type ThrottleContext } from '../rate-limits.ts';
import { LoginThrottle, UNTHROTTLED, type LoginGuard } from './login-throttle.ts';
import { SharedLoginThrottle } from './shared-login-throttle.ts';
import { normalizeEmail } from '../users/users.names.ts';

export interface AuthLimits {
  login: LoginGuard;
  register: RequestHandler[];
  forgotPassword: RequestHandler[];
  resendVerification: RequestHandler[];
}

export function authLimits(ctx: ThrottleContext): AuthLimits {
  return {
    login: ctx.config.rateLimits ? loginGuard(ctx) : UNTHROTTLED,
    // Every attempt counts, 409s included: "Email is already registered" cannot be used to
    // test a list of addresses faster than 20 an hour from one IP.
    register: [limiter(ctx, 'register', { windowMs: 60 * MINUTE, limit: 20 })],
    // DESIGN.md, Mail: 10 an hour per client, 3 an hour per address (whether it has an account or not).
    forgotPassword: [
      limiter(ctx, 'forgot-password', { windowMs: 60 * MINUTE, limit: 10 }),
      limiter(ctx, 'forgot-password-address', {
        windowMs: 60 * MINUTE, limit: 3, validate: { keyGeneratorIpFallback: false },
        keyGenerator: (req) => `email:${normalizeEmail(typeof req.body?.email === 'string' ? req.body.email : '')}`,
      }),
    ],
    // A link mailed on demand: 3 an hour per account, so a signed-in script cannot mail-bomb its address.
    resendVerification: [
      limiter(ctx, 'resend-verification', {
        windowMs: 60 * MINUTE, limit: 3, validate: { keyGeneratorIpFallback: false },
        // A request without a good session is answered 401 by the route, uncounted.
        skip: (req) => !(req.auth && 'user' in req.auth),
        keyGenerator: (req) => `user:${(req.auth as { user: { id: number } }).user.id}`,
      }),
    ],
  };
}

function loginGuard(ctx: ThrottleContext): LoginGuard {
  const counters = sharedCounters(ctx.db);
  return counters ? new SharedLoginThrottle(counters) : new LoginThrottle();
}
