// Throttles for password guessing and sign-up floods (DESIGN.md, Edges). RATE_LIMITS=off turns
// both off.
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';
import { MINUTE, limiter } from '../rate-limits.ts';
import { LoginThrottle, UNTHROTTLED, type LoginGuard } from './login-throttle.ts';

export interface AuthLimits {
  login: LoginGuard;
  register: RequestHandler[];
}

export function authLimits(config: Config): AuthLimits {
  return {
    login: config.rateLimits ? new LoginThrottle() : UNTHROTTLED,
    // Every attempt counts, 409s included: "Email is already registered" cannot be used to
    // test a list of addresses faster than 20 an hour from one IP.
    register: [limiter(config, { windowMs: 60 * MINUTE, limit: 20 })],
  };
}
