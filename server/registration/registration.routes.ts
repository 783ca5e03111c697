// GET    /api/admin/pending               (admins) accounts waiting for approval, oldest first: skip, limit → {users, total}
// POST   /api/admin/pending/:id/approve   (admins) → {detail}; the account may log in, mailed when mail is on
// POST   /api/admin/pending/:id/reject    (admins) {reason?} → {detail}; the account is removed, mailed the reason
// POST   /api/invites                     (admins) {uses?, days?} → 201 {code, url, expires_at, uses_left, created_at}
// GET    /api/invites                     (admins) the live invitations → {invites}
// DELETE /api/invites/:code               (admins) revokes one → {detail}
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf, idOf, pageOf } from '../http.ts';
import { requireAdmin } from '../session.ts';
import { PENDING_NOT_FOUND } from '../../shared/registration.ts';
import { createInvite, liveInvites, revokeInvite } from './invites.service.ts';
import { approveAccount, listPending, rejectAccount } from './pending.service.ts';

export function registrationRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/admin/pending', async (req, res) => {
    requireAdmin(req);
    res.json(await listPending(ctx, pageOf(req, 50)));
  });

  router.post('/admin/pending/:id/approve', async (req, res) => {
    requireAdmin(req);
    res.json({ detail: await approveAccount(ctx, idOf(req.params.id, PENDING_NOT_FOUND)) });
  });

  router.post('/admin/pending/:id/reject', async (req, res) => {
    requireAdmin(req);
    res.json({ detail: await rejectAccount(ctx, idOf(req.params.id, PENDING_NOT_FOUND), bodyOf(req)) });
  });

  router.post('/invites', async (req, res) => {
    res.status(201).json(await createInvite(ctx, requireAdmin(req), bodyOf(req)));
  });

  router.get('/invites', async (req, res) => {
    requireAdmin(req);
    res.json({ invites: await liveInvites(ctx) });
  });

  router.delete('/invites/:code', async (req, res) => {
    requireAdmin(req);
    await revokeInvite(ctx, req.params.code);
    res.json({ detail: 'Invitation revoked' });
  });

  return router;
}
