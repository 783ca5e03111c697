// Which readers' lists are their own. The public lists (front page, Recent, rankings, search) are
// the same for every reader and served from the read cache before the session is read
// (cache/read-cache.ts); a signed-in reader who muted something needs them without what they
// muted. So, before the cache and compression look at the request: a request of one of those
// lists with a bearer token has the token read (a signature check, kept per token) and, only then,
// one lookup by key for any mute of its user. A muter's request is marked, passes the cache by
// and reaches its route, which filters its query by `mutedReader`; everyone else (visitors, and
// readers who muted nothing) keeps the cache.
import type { Request, RequestHandler } from 'express';
import { readAccessToken } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import { optionalUser } from '../session.ts';
import { hasMutes } from './mutes.service.ts';

/** The lists whose answers a reader's mutes change. */
export const MUTABLE_LISTS = ['/api/frontpage', '/api/posts', '/api/ranks', '/api/search'] as const;

export function markMutedReaders(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const claims = match ? readAccessToken(ctx.config, match[1]!) : undefined;
    if (!claims) return next();
    hasMutes(ctx.db, claims.userId).then((muted) => {
      if (muted) req.mutedBy = claims.userId;
      next();
    }, next);
  };
}

/** The reader whose mutes this list leaves out: signed in (the session checked) and marked above. */
export function mutedReader(req: Request): number | undefined {
  const user = optionalUser(req);
  return user && user.id === req.mutedBy ? user.id : undefined;
}
