// POST /api/posts/:id/rate   {post_id?, rating 1–5} → the article with the reader's user_rating
// GET  /api/posts/:id/rating the signed-in reader's own rating → {user_rating} (0 when none): what a
//                            page the server rendered for a visitor lacks (server/pages/)
import { Router } from 'express';
import { requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, idOf } from '../http.ts';
import { ARTICLE_NOT_FOUND } from '../posts/posts.service.ts';
import { ratePost, readerRating } from './ratings.service.ts';

export function ratingsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/posts/:id/rate', async (req, res) => {
    const user = requireUser(req, 'You must sign in to rate articles');
    res.json(await ratePost(ctx, user, idOf(req.params.id, ARTICLE_NOT_FOUND), bodyOf(req)));
  });

  router.get('/posts/:id/rating', async (req, res) => {
    res.json(await readerRating(ctx, requireUser(req), idOf(req.params.id, ARTICLE_NOT_FOUND)));
  });

  return router;
}
