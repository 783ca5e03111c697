// Every feature's API router, mounted under /api in this order.
import type { Router } from 'express';
import { authRoutes } from './auth/auth.routes.ts';
import type { AppContext } from './context.ts';
import { postsRoutes } from './posts/posts.routes.ts';
import { ratingsRoutes } from './ratings/ratings.routes.ts';
import { commentsRoutes } from './comments/comments.routes.ts';
import { discoveryRoutes } from './discovery/discovery.routes.ts';
import { postsAdminRoutes } from './posts/posts.admin.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { usersRoutes } from './users/users.routes.ts';

export function apiRouters(ctx: AppContext): Router[] {
  return [
    systemRoutes(ctx),
    authRoutes(ctx),
    usersRoutes(ctx),
    postsRoutes(ctx),
    ratingsRoutes(ctx),
    commentsRoutes(ctx),
    discoveryRoutes(ctx),
    postsAdminRoutes(ctx),
  ];
}
