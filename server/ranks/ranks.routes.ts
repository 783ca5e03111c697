// GET /api/posts/:id/rank   {position, score, parts: {visits, ratings, comments}, age_hours, decay,
//                           refreshed_at, next_refresh_at}: a listed article's place on The Pulse, as
//                           GET /api/ranks lists it, and its stored score (docs/ranking.md); 404 when unlisted
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { idOf } from '../http.ts';
import { NOT_RANKED, postRank } from './ranks.service.ts';

export function ranksRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/posts/:id/rank', async (req, res) => {
    res.json(await postRank(ctx.db, idOf(req.params.id, NOT_RANKED), ctx.config.rankRefreshHours));
  });

  return router;
}
