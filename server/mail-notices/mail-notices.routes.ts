// GET /api/users/me/email-preferences   {comments, followers, mentions, digest}
// PUT /api/users/me/email-preferences   any of them → all four as stored
// Only with mail on (DESIGN.md, Mail): without it there is no mail to choose.
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf } from '../http.ts';
import { requireUser } from '../session.ts';
import { emailPreferences, setEmailPreferences } from './mail-notices.service.ts';

export function mailNoticesRoutes(ctx: AppContext): Router {
  const router = Router();
  if (!ctx.config.mail) return router;

  router.get('/users/me/email-preferences', async (req, res) => {
    res.json(await emailPreferences(ctx, requireUser(req).id));
  });

  router.put('/users/me/email-preferences', async (req, res) => {
    res.json(await setEmailPreferences(ctx, requireUser(req).id, bodyOf(req)));
  });

  return router;
}
