// GET  /api/users/me/email-preferences   {comments, followers, mentions, digest}
// PUT  /api/users/me/email-preferences   any of them → all four as stored
// GET  /api/unsubscribe?token=…          {kinds}: what the link turns off, for its page
// POST /unsubscribe?token=…              RFC 8058's one click: those kinds off, no sign-in
// Only with mail on (DESIGN.md, Mail): without it there is no mail to choose or stop.
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf, queryText } from '../http.ts';
import { requireUser } from '../session.ts';
import { emailPreferences, setEmailPreferences } from './mail-notices.service.ts';
import { unsubscribe, unsubscribeQuestion } from './mail-notices.unsubscribe.ts';

export function mailNoticesRoutes(ctx: AppContext): Router {
  const router = Router();
  if (!ctx.config.mail) return router;

  router.get('/users/me/email-preferences', async (req, res) => {
    res.json(await emailPreferences(ctx, requireUser(req).id));
  });

  router.put('/users/me/email-preferences', async (req, res) => {
    res.json(await setEmailPreferences(ctx, requireUser(req).id, bodyOf(req)));
  });

  router.get('/unsubscribe', (req, res) => {
    res.json(unsubscribeQuestion(ctx, queryText(req, 'token') ?? ''));
  });

  return router;
}

/** The List-Unsubscribe address's POST, off /api: where a mail client's one click goes. */
export function oneClickUnsubscribeRoutes(ctx: AppContext): Router {
  const router = Router();
  if (!ctx.config.mail) return router;
  router.post('/unsubscribe', async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ detail: await unsubscribe(ctx, queryText(req, 'token') ?? '') });
  });
  return router;
}
