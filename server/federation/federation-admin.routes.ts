// Admins only (others 401 / 403 'Admin privileges required'), and only while FEDERATION is on:
// off, these answer 404 as every federation address does (routes.ts mounts them only then).
// GET    /api/admin/federation                 followers_skip, deliveries_skip, failures_skip, limit (50, max 100)
//                                              → {remote_followers, remote_followers_total, deliveries, deliveries_total, failures, failures_total}
// GET    /api/admin/federation/blocks          skip, limit (100, max 1000) → {blocks, total}, by target
// PUT    /api/admin/federation/blocks/:target  {reason?} blocks a server (example.org) or an account (@user@example.org)
//                                              → {message, block, removed: {followers, comments, likes, boosts}}
// DELETE /api/admin/federation/blocks/:target  → {message}; 404 when it was not blocked
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf, pageOf } from '../http.ts';
import { requireAdmin } from '../session.ts';
import { federationOverview } from './federation.admin.ts';
import { blockTarget, listBlockPage, unblockTarget } from './federation.blocks.ts';

const PAGE = 50;

export function federationAdminRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/admin/federation', async (req, res) => {
    requireAdmin(req);
    res.json(await federationOverview(ctx, {
      followers: pageOf(req, PAGE, 100, 'followers_skip'),
      deliveries: pageOf(req, PAGE, 100, 'deliveries_skip'),
      failures: pageOf(req, PAGE, 100, 'failures_skip'),
    }));
  });

  router.get('/admin/federation/blocks', async (req, res) => {
    requireAdmin(req);
    res.json(await listBlockPage(ctx, pageOf(req, 100, 1000)));
  });

  router.put('/admin/federation/blocks/:target', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await blockTarget(ctx, admin, req.params.target, bodyOf(req)));
  });

  router.delete('/admin/federation/blocks/:target', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await unblockTarget(ctx, admin, req.params.target));
  });

  return router;
}
