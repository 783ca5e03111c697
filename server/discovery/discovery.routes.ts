// GET /api/frontpage   {posts}: up to 20 — the best ranked of the last 7 days, then the newest
//                      (these and /api/posts, /api/search: a signed-in reader's mutes left out)
// GET /api/ranks       {posts, refreshed_at, next_refresh_at}: hashtag (contains), time_period (24h|7d|30d), criteria
//                      (ranking|visits), skip, limit (50, max 100)
// GET /api/hashtags    [{hashtag, count}] over active posts, most used first: search, limit (100, max 1000)
// GET /api/authors     {authors, total}: skip, limit (20), sort_by (mojo_desc …), search
import { Router } from 'express';
import { normalizeHashtag } from '../../shared/articles.ts';
import type { AppContext } from '../context.ts';
import { choiceOf, pageOf, queryText } from '../http.ts';
import { mutedReader } from '../mutes/mutes.readers.ts';
import { TIME_PERIODS, sinceOf } from '../posts/posts.input.ts';
import { AUTHOR_SORTS, authorsPage, frontPage, hashtagStats, rankedFeed } from './discovery.service.ts';

export function discoveryRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/frontpage', async (req, res) => {
    res.json({ posts: await frontPage(ctx, Date.now(), mutedReader(req)) });
  });

  router.get('/ranks', async (req, res) => {
    const page = pageOf(req, 50);
    const hashtag = normalizeHashtag(queryText(req, 'hashtag') ?? '');
    res.json(await rankedFeed(ctx, {
      hashtagContains: hashtag || undefined,
      since: sinceOf(choiceOf(req, 'time_period', TIME_PERIODS, '')),
      mutedBy: mutedReader(req),
    }, choiceOf(req, 'criteria', ['ranking', 'visits'] as const, 'ranking'), page));
  });

  router.get('/hashtags', async (req, res) => {
    const { limit } = pageOf(req, 100, 1000);
    const search = normalizeHashtag(queryText(req, 'search') ?? '');
    res.json(await hashtagStats(ctx, search || undefined, limit));
  });

  router.get('/authors', async (req, res) => {
    const page = pageOf(req, 20);
    const search = queryText(req, 'search')?.trim() || undefined;
    const sort = choiceOf(req, 'sort_by', AUTHOR_SORTS, 'mojo_desc');
    res.json(await authorsPage(ctx, search, sort, page));
  });

  return router;
}
