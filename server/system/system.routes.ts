// GET /api/health  {status:"ok"} after a database round-trip; 503 when the database is unusable
// GET /api/config  settings the client needs: {signin_client_id, mail} (mail: whether mail features show)
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { checkDatabase } from './system.service.ts';

export function systemRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/health', async (_req, res) => {
    try {
      await checkDatabase(ctx);
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    } catch (err) {
      ctx.log.error({ err }, 'health check failed');
      res.status(503).json({ detail: 'Database unavailable' });
    }
  });

  router.get('/config', (_req, res) => {
    res.json({ signin_client_id: ctx.config.signinClientId, mail: ctx.config.mail !== null });
  });

  return router;
}
