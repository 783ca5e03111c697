// GET /api/frontpage   {posts}: up to 20 — the best ranked of the last 7 days, then the newest
// GET /api/ranks       {posts}: hashtag (contains), time_period (24h|7d|30d), criteria
//                      (ranking|visits), skip, limit (50, max 100)
// GET /api/hashtags    [{hashtag, count}] over active posts, most used first: search, limit (100, max 1000)
// GET /api/authors     {authors, total}: skip, limit (20), sort_by (mojo_desc …), search
import { Router } from 'express';
import { excerpt } from '../../shared/excerpt.ts';
import type { AppContext } from '../context.ts';
import { choiceOf, pageOf, queryText } from '../http.ts';
import { normalizeHashtag } from '../../shared/articles.ts';
import { TIME_PERIODS, sinceOf } from '../posts/posts.input.ts';
import { listPosts, listRankedPosts } from '../posts/posts.repo.ts';
import { toPost } from '../posts/posts.view.ts';
import { toPublicUser } from '../users/users.view.ts';
import { AUTHOR_SORTS, countAuthors, listAuthors, listHashtagStats } from './discovery.repo.ts';

const FRONT_PAGE_SIZE = 20;
const FRONT_PAGE_RANKED = 10;
const FRONT_PAGE_EXCERPT = 200;
const WEEK_MS = 7 * 86_400_000;

export function discoveryRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/frontpage', async (_req, res) => {
    const since = new Date(Date.now() - WEEK_MS).toISOString();
    const [ranked, newest] = await Promise.all([
      listRankedPosts(ctx.db, { archived: false, since }, 'ranking', { skip: 0, limit: FRONT_PAGE_RANKED }),
      listPosts(ctx.db, { archived: false }, 'newest', { skip: 0, limit: FRONT_PAGE_SIZE }),
    ]);
    const chosen = [...ranked, ...newest.filter((p) => !ranked.some((r) => r.id === p.id))].slice(0, FRONT_PAGE_SIZE);
    res.json({ posts: chosen.map((row) => ({ ...toPost(row), excerpt: excerpt(row.content, FRONT_PAGE_EXCERPT) })) });
  });

  router.get('/ranks', async (req, res) => {
    const page = pageOf(req, 50);
    const hashtag = normalizeHashtag(queryText(req, 'hashtag') ?? '');
    const rows = await listRankedPosts(ctx.db, {
      archived: false,
      hashtagContains: hashtag || undefined,
      since: sinceOf(choiceOf(req, 'time_period', TIME_PERIODS, '')),
    }, choiceOf(req, 'criteria', ['ranking', 'visits'] as const, 'ranking'), page);
    res.json({ posts: rows.map(toPost) });
  });

  router.get('/hashtags', async (req, res) => {
    const { limit } = pageOf(req, 100, 1000);
    const search = normalizeHashtag(queryText(req, 'search') ?? '');
    res.json(await listHashtagStats(ctx.db, search || undefined, limit));
  });

  router.get('/authors', async (req, res) => {
    const page = pageOf(req, 20);
    const search = queryText(req, 'search')?.trim() || undefined;
    const sort = choiceOf(req, 'sort_by', AUTHOR_SORTS, 'mojo_desc');
    const [rows, total] = await Promise.all([listAuthors(ctx.db, search, sort, page), countAuthors(ctx.db, search)]);
    res.json({
      authors: rows.map((row) => ({ ...toPublicUser(row), average_rating: row.received_average_rating })),
      total,
    });
  });

  return router;
}
