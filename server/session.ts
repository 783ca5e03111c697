// Reads the bearer token once per API request; handlers then ask for the user they need. Every
// feature's routes use it, so it sits beside the app rather than in one feature.
import type { Request, RequestHandler } from 'express';
import { findSessionUser } from './auth/sessions.service.ts';
import { readAccessToken, type TokenClaims } from './auth/tokens.ts';
import type { AppContext } from './context.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { UserRow } from './schema.ts';
import { activeBan, banMessage } from './users/users.bans.ts';
import { ADMIN_NEEDS_TWO_FACTOR } from '../shared/two-factor.ts';

const INVALID_TOKEN = 'Could not validate credentials';

export function authenticate(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) return next();
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const claims = match ? readAccessToken(ctx.config, match[1]!) : undefined;
    const found = claims ? await findSessionUser(ctx.db, claims) : undefined;
    if (!claims || !found || found.revoked) {
      req.auth = { error: unauthorized(INVALID_TOKEN) };
      return next();
    }
    const { user } = found;
    // A ban answers 403 before the token version is compared, so a banned user learns why.
    const ban = activeBan(user);
    if (ban) req.auth = { error: forbidden(banMessage(ban)), token: claims };
    else if (claims.tokenVersion !== user.token_version) req.auth = { error: unauthorized(INVALID_TOKEN) };
    else req.auth = { user, token: claims, adminNeedsTwoFactor: ctx.config.admin2fa === 'required' && user.two_factor_enabled !== 1 };
    next();
  };
}

/** The signed-in user, or the 401/403 the request deserves; `signInDetail` tells a visitor why. */
export function requireUser(req: Request, signInDetail?: string): UserRow {
  if (!req.auth) throw unauthorized(signInDetail);
  if ('error' in req.auth) throw req.auth.error;
  return req.auth.user;
}

/** The signed-in user when the token is good; a bad or banned token reads as a visitor. */
export function optionalUser(req: Request): UserRow | undefined {
  return req.auth && 'user' in req.auth ? req.auth.user : undefined;
}

/**
 * The token of the request when it is a live session of an existing user, banned or not (a banned
 * user may still sign out); the 401 the request deserves otherwise.
 */
export function requireSessionToken(req: Request): TokenClaims {
  if (!req.auth) throw unauthorized();
  if (!req.auth.token) throw 'error' in req.auth ? req.auth.error : unauthorized();
  return req.auth.token;
}

/** An admin; with ADMIN_2FA=required, only one whose two-factor sign-in is on. */
export function requireAdmin(req: Request): UserRow {
  const user = requireUser(req);
  if (user.level !== 'admin') throw forbidden('Admin privileges required');
  if (req.auth?.adminNeedsTwoFactor) throw forbidden(ADMIN_NEEDS_TWO_FACTOR);
  return user;
}
