// GET    /api/posts                newest active articles: skip, limit (20), hashtag → {posts, total};
//                                  a signed-in reader's mutes left out
// POST   /api/posts                publish: multipart title, content, hashtags (JSON text), image?;
//                                  draft=true saves a draft (only the title is required)
// GET    /api/posts/:id            one article (+ user_rating for a reader); counts a visit
// PUT    /api/posts/:id            edit one's own article: same form, remove_image=true drops the image;
//                                  a draft stays a draft
// POST   /api/posts/:id/publish    publish one's own draft, with the same form's changes if sent
// DELETE /api/posts/:id            delete one's own article
// PUT    /api/posts/:id/archive    archive or unarchive one's own article (admins too)
// GET    /api/users/:id/posts      an author's articles: skip, limit (100), sort_by, search, hashtag,
//                                  time_period, archived, status=published|draft (archived and
//                                  drafts: the author and admins only)
import { Router, type Request, type RequestHandler } from 'express';
import { optionalUser, requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, choiceOf, flagOf, idOf, pageOf, queryText } from '../http.ts';
import { singleImageUpload } from '../images/upload.ts';
import { publishLimit } from '../rate-limits.ts';
import { ARTICLE_IMAGE_MAX_BYTES, normalizeHashtag } from '../../shared/articles.ts';
import { imageTooLargeMessage } from '../../shared/images.ts';
import { TIME_PERIODS, sinceOf } from './posts.input.ts';
import { mutedReader } from '../mutes/mutes.readers.ts';
import { visitorKey } from './posts.visitors.ts';
import { ARTICLE_NOT_FOUND, POST_SORTS, listAuthorPosts, listPostPage } from './posts.service.ts';
import { JSON_TYPE, keptArticle, readPost } from './posts.read.service.ts';
import { passingEntry, sendEntry } from '../cache/read-cache.ts';
import { createPost, deleteOwnPost, publishDraft, toggleArchive, updatePost } from './posts.write.service.ts';

const STATUSES = ['published', 'draft'] as const;

/** An id as the API writes it: anything else goes on to the router, which answers it as before. */
const ARTICLE_ID = /^[1-9]\d{0,15}$/;
const ARTICLE_PATH = /^\/api\/posts\/[1-9]\d{0,15}$/;

/**
 * GET /api/posts/:id for a reader who sends no token, answered before the API's body parser,
 * session and router (app.ts), as the cached lists are: none of them has anything to do for it,
 * and the article itself mostly comes from the read cache. The same read as the router's. Every
 * answer goes out as a cached one does (sendEntry: the same weak ETag and 304 as Express's, the
 * body compressed when asked), also one read afresh, so the compression middleware is skipped
 * for these requests (`answersOwnEncoding`): it cost 20-30 µs of a counted visit's 500.
 */
export function anonymousArticleRead(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const id = req.params.id as string;
    if (req.headers.authorization !== undefined || !ARTICLE_ID.test(id)) return next();
    const post = await readPost(ctx, Number(id), undefined, visitorKey(ctx, req, undefined));
    sendEntry(req, res, keptArticle(ctx, post) ?? passingEntry(Buffer.from(JSON.stringify(post)), JSON_TYPE));
  };
}

/** Whether anonymousArticleRead answers this request, encoding included (app.ts). */
export function answersOwnEncoding(req: Request): boolean {
  return req.headers.authorization === undefined && (req.method === 'GET' || req.method === 'HEAD') && ARTICLE_PATH.test(req.path);
}

export function postsRoutes(ctx: AppContext): Router {
  const router = Router();
  const articleForm = singleImageUpload('image', ARTICLE_IMAGE_MAX_BYTES, imageTooLargeMessage(ARTICLE_IMAGE_MAX_BYTES));

  router.get('/posts', async (req, res) => {
    const page = pageOf(req, 20);
    res.json(await listPostPage(ctx, { archived: false, hashtag: hashtagQuery(req), mutedBy: mutedReader(req) }, 'newest', page));
  });

  router.post('/posts', publishLimit(ctx), articleForm, async (req, res) => {
    const post = await createPost(ctx, requireUser(req), bodyOf(req), req.file);
    res.status(201).json(post);
  });

  router.get('/posts/:id', async (req, res) => {
    const reader = optionalUser(req);
    const post = await readPost(ctx, idOf(req.params.id, ARTICLE_NOT_FOUND), reader, visitorKey(ctx, req, reader?.id));
    res.json(post);
  });

  router.put('/posts/:id', articleForm, async (req, res) => {
    const user = requireUser(req);
    res.json(await updatePost(ctx, user, idOf(req.params.id, ARTICLE_NOT_FOUND), bodyOf(req), req.file));
  });

  router.post('/posts/:id/publish', publishLimit(ctx), articleForm, async (req, res) => {
    const user = requireUser(req);
    res.json(await publishDraft(ctx, user, idOf(req.params.id, ARTICLE_NOT_FOUND), bodyOf(req), req.file));
  });

  router.delete('/posts/:id', async (req, res) => {
    await deleteOwnPost(ctx, requireUser(req), idOf(req.params.id, ARTICLE_NOT_FOUND));
    res.json({ message: 'Article deleted successfully' });
  });

  router.put('/posts/:id/archive', async (req, res) => {
    res.json(await toggleArchive(ctx, requireUser(req), idOf(req.params.id, ARTICLE_NOT_FOUND)));
  });

  router.get('/users/:id/posts', async (req, res) => {
    const search = queryText(req, 'search')?.trim();
    res.json(await listAuthorPosts(ctx, optionalUser(req), idOf(req.params.id, 'User not found'), {
      draft: choiceOf(req, 'status', STATUSES, 'published') === 'draft',
      archived: flagOf(req, 'archived'),
      hashtag: hashtagQuery(req),
      search: search ? search : undefined,
      since: sinceOf(choiceOf(req, 'time_period', TIME_PERIODS, '')),
    }, choiceOf(req, 'sort_by', POST_SORTS, 'newest'), pageOf(req, 100)));
  });

  return router;
}

function hashtagQuery(req: Request): string | undefined {
  const tag = normalizeHashtag(queryText(req, 'hashtag') ?? '');
  return tag ? tag : undefined;
}
