// GET    /api/posts/:id/comments   the conversation, oldest first: skip, limit (200, max 500) → Comment[]
// POST   /api/posts/:id/comments   {content} → 201 Comment
// PUT    /api/comments/:id         {content}: one's own comment → Comment
// DELETE /api/comments/:id         one's own comment, or any as admin with ?reason= (required then:
//                                  the author is told, reports closed, the moderation log kept) → {message}
import { Router } from 'express';
import { optionalUser, requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, idOf, pageOf, queryText } from '../http.ts';
import { normalizeLine } from '../../shared/text.ts';
import { ARTICLE_NOT_FOUND } from '../posts/posts.service.ts';
import { COMMENT_NOT_FOUND, addComment, commentsOfPost, deleteComment, editComment } from './comments.service.ts';

export function commentsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/posts/:id/comments', async (req, res) => {
    const postId = idOf(req.params.id, ARTICLE_NOT_FOUND);
    res.json(await commentsOfPost(ctx, postId, optionalUser(req), pageOf(req, 200, 500)));
  });

  router.post('/posts/:id/comments', async (req, res) => {
    const user = requireUser(req, 'You must sign in to comment');
    const comment = await addComment(ctx, user, idOf(req.params.id, ARTICLE_NOT_FOUND), bodyOf(req));
    res.status(201).json(comment);
  });

  router.put('/comments/:id', async (req, res) => {
    const user = requireUser(req);
    res.json(await editComment(ctx, user, idOf(req.params.id, COMMENT_NOT_FOUND), bodyOf(req)));
  });

  router.delete('/comments/:id', async (req, res) => {
    const user = requireUser(req);
    await deleteComment(ctx, user, idOf(req.params.id, COMMENT_NOT_FOUND), normalizeLine(queryText(req, 'reason') ?? ''));
    res.json({ message: 'Comment deleted successfully' });
  });

  return router;
}
