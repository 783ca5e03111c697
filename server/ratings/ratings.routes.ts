// POST /api/posts/:id/rate   {post_id?, rating 1–5} → the article with the reader's user_rating
import { Router } from 'express';
import { requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, idOf } from '../http.ts';
import { ARTICLE_NOT_FOUND } from '../posts/posts.service.ts';
import { ratePost } from './ratings.service.ts';

export function ratingsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/posts/:id/rate', async (req, res) => {
    const user = requireUser(req, 'You must sign in to rate articles');
    res.json(await ratePost(ctx, user, idOf(req.params.id, ARTICLE_NOT_FOUND), bodyOf(req)));
  });

  return router;
}
