// GET /api/moderation   public: skip, limit (50, max 100) → {entries, total}, newest first
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { pageOf } from '../http.ts';
import { moderationLog } from './moderation.service.ts';

export const MODERATION_PAGE_SIZE = 50;

export function moderationRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/moderation', async (req, res) => {
    res.json(await moderationLog(ctx, pageOf(req, MODERATION_PAGE_SIZE)));
  });

  return router;
}
