// POST /api/reports                            signed in, throttled: {target_type: post | comment,
//                                              target_id, reason: spam | harassment | off-topic | other,
//                                              note (≤ 500)} → 201 Report
// Admin only (403 'Admin privileges required' for everyone else):
// GET  /api/admin/reports                      status (open | closed), skip, limit (50, max 100)
//                                              → {reports, total}: grouped by what they name
// POST /api/admin/reports/:type/:id/dismiss    closes the target's open reports, tells each reporter
//                                              → {message, closed}
import { Router } from 'express';
import { REPORT_SIGN_IN } from '../../shared/reports.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, choiceOf, pageOf } from '../http.ts';
import { reportLimit } from '../rate-limits.ts';
import { requireAdmin, requireUser } from '../session.ts';
import { targetOfPath } from './reports.input.ts';
import { dismissReports, listReports, NO_OPEN_REPORTS, reportContent } from './reports.service.ts';

export function reportsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/reports', reportLimit(ctx), async (req, res) => {
    const user = requireUser(req, REPORT_SIGN_IN);
    res.status(201).json(await reportContent(ctx, user, bodyOf(req)));
  });

  router.get('/admin/reports', async (req, res) => {
    requireAdmin(req);
    const status = choiceOf(req, 'status', ['open', 'closed'] as const, 'open');
    res.json(await listReports(ctx, status, pageOf(req, 50)));
  });

  router.post('/admin/reports/:type/:id/dismiss', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await dismissReports(ctx, admin, targetOfPath(req.params.type, req.params.id, NO_OPEN_REPORTS)));
  });

  return router;
}
