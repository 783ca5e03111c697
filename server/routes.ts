// Every feature's API router, mounted under /api in this order: Express tries each route in
// turn, so the busiest paths (an article, its rating and comments) come first. No two routers
// share a path.
import type { Router } from 'express';
import type { CachedLists, PerAddress } from './cache/read-cache.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { accountRoutes } from './account/account.routes.ts';
import { authLimits } from './auth/auth.limits.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { twoFactorRoutes } from './auth/two-factor.routes.ts';
import type { AppContext } from './context.ts';
import { postsRoutes } from './posts/posts.routes.ts';
import { ranksRoutes } from './ranks/ranks.routes.ts';
import { ratingsRoutes } from './ratings/ratings.routes.ts';
import { commentsRoutes } from './comments/comments.routes.ts';
import { discoveryRoutes } from './discovery/discovery.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { mailNoticesRoutes } from './mail-notices/mail-notices.routes.ts';
import { followsRoutes } from './follows/follows.routes.ts';
import { mojoRoutes } from './users/mojo-ledger.routes.ts';
import { mutesRoutes } from './mutes/mutes.routes.ts';
import { moderationRoutes } from './moderation/moderation.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { previewRoutes } from './markdown/preview.routes.ts';
import { siteRoutes } from './site/site.routes.ts';
import { registrationRoutes } from './registration/registration.routes.ts';
import { federationAdminRoutes } from './federation/federation-admin.routes.ts';

export function apiRouters(ctx: AppContext): Router[] {
  // One login throttle for every password check: signing in, and the settings that ask for it.
  const limits = authLimits(ctx);
  return [
    postsRoutes(ctx),
    ratingsRoutes(ctx),
    commentsRoutes(ctx),
    discoveryRoutes(ctx),
    ranksRoutes(ctx),
    searchRoutes(ctx),
    systemRoutes(ctx),
    authRoutes(ctx, limits),
    accountRoutes(ctx, limits.login),
    twoFactorRoutes(ctx, limits.login),
    mailNoticesRoutes(ctx),
    usersRoutes(ctx),
    followsRoutes(ctx),
    mojoRoutes(ctx),
    mutesRoutes(ctx),
    notificationsRoutes(ctx),
    reportsRoutes(ctx),
    previewRoutes(ctx),
    moderationRoutes(ctx),
    siteRoutes(ctx),
    registrationRoutes(ctx),
    adminRoutes(ctx),
    // The fediverse's admin (blocks, the Fediverse tab): only with FEDERATION on, a 404 otherwise.
    ...(ctx.federation ? [federationAdminRoutes(ctx)] : []),
  ];
}

/**
 * The public lists answered from the read cache, with the query parameters each route reads:
 * the cache key is made of those alone (cache/read-cache.ts).
 */
export const CACHED_LISTS: CachedLists = {
  '/api/frontpage': [],
  '/api/posts': ['skip', 'limit', 'hashtag'],
  '/api/ranks': ['skip', 'limit', 'hashtag', 'time_period', 'criteria'],
  '/api/hashtags': ['limit', 'search'],
  '/api/authors': ['skip', 'limit', 'search', 'sort_by'],
  // A busy site's readers search for the same few words; what they type is the key, as sent.
  '/api/search': ['q', 'skip', 'limit'],
  '/api/moderation': ['skip', 'limit'],
};

/**
 * Public answers kept per address: an article's rank, as the last refresh stored it, and an
 * author's mojo ledger (a counted visit, its one write outside the API's writes, forgets it:
 * posts.read.service.ts). Only ids written as the API writes them, so `/api/posts/007/rank`
 * cannot store a copy of the same answer.
 */
export const CACHED_PER_ADDRESS: readonly PerAddress[] = [
  { route: '/api/posts/:id/rank', pattern: /^\/api\/posts\/[1-9]\d{0,15}\/rank$/, params: [] },
  { route: '/api/users/:id/mojo', pattern: /^\/api\/users\/[1-9]\d{0,15}\/mojo$/, params: ['skip', 'limit'] },
];
