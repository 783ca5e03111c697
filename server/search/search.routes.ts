// GET    /api/search               active articles matching q: skip, limit (20) → {posts, total}, each with a snippet;
//                                  a signed-in reader's mutes left out
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { pageOf, queryText } from '../http.ts';
import { mutedReader } from '../mutes/mutes.readers.ts';
import { searchPosts } from './search.service.ts';

export function searchRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/search', async (req, res) => {
    const page = pageOf(req, 20);
    res.json(await searchPosts(ctx, queryText(req, 'q') ?? '', page, mutedReader(req)));
  });

  return router;
}
