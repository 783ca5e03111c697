// GET    /api/admin/posts              articles, newest first: skip, limit (50), search (title or
//                                      author), status (all | active | archived) → {posts, total}
// DELETE /api/admin/delete-post/:id    ?reason= (required): removes the article, tells its author
import { Router } from 'express';
import { requireAdmin } from '../session.ts';
import type { AppContext } from '../context.ts';
import { insertModerationLog } from '../admin/admin.repo.ts';
import { badRequest } from '../errors.ts';
import { choiceOf, idOf, pageOf, queryText } from '../http.ts';
import { normalizeLine } from '../../shared/text.ts';
import { insertNotification } from '../notifications/notifications.repo.ts';
import { countPosts, listPosts, type PostFilter } from './posts.repo.ts';
import { ARTICLE_NOT_FOUND, removePost } from './posts.service.ts';
import { toPost } from './posts.view.ts';

const REASON_MAX = 500;

export function postsAdminRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/admin/posts', async (req, res) => {
    requireAdmin(req);
    const page = pageOf(req, 50);
    const search = queryText(req, 'search')?.trim();
    const status = choiceOf(req, 'status', ['all', 'active', 'archived'] as const, 'all');
    const filter: PostFilter = {
      titleOrAuthor: search ? search : undefined,
      archived: status === 'all' ? undefined : status === 'archived',
    };
    const [rows, total] = await Promise.all([listPosts(ctx.db, filter, 'newest', page), countPosts(ctx.db, filter)]);
    res.json({ posts: rows.map(toPost), total });
  });

  router.delete('/admin/delete-post/:id', async (req, res) => {
    const admin = requireAdmin(req);
    const postId = idOf(req.params.id, ARTICLE_NOT_FOUND);
    const reason = normalizeLine(queryText(req, 'reason') ?? '');
    if (!reason) throw badRequest('Please enter a reason for deleting the post');
    if (reason.length > REASON_MAX) throw badRequest('The reason cannot exceed 500 characters');
    await removePost(ctx, postId, async (trx, post) => {
      if (post.author_id !== admin.id) {
        await insertNotification(trx, {
          userId: post.author_id,
          type: 'post_deleted',
          subject: 'Your article was removed',
          message: `An administrator removed your article "${post.title}". Reason: ${reason}`,
          actor: { id: admin.id, username: admin.username },
          post: { id: null, title: post.title },
        });
      }
      await insertModerationLog(trx, {
        adminId: admin.id, action: 'delete_post', targetUserId: post.author_id,
        post: { id: post.id, title: post.title }, reason,
      });
    });
    res.json({ message: 'Post deleted successfully' });
  });

  return router;
}
