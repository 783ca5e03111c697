// Admin only (403 'Admin privileges required' for everyone else):
// GET  /api/admin/users                  skip, limit (50, max 100), level, search → {users, total}
// GET  /api/admin/stats                  → {total_users, active_posts, banned_users}
// GET  /api/admin/banned-users           skip, limit (50, max 100) → {banned_users, total}
// POST /api/admin/update-user-level      {user_id, level} → {message, user}
// POST /api/admin/ban-user               {user_id, ban_type, ban_reason, ban_until} → {message, user}
// POST /api/admin/unban-user/:id         → {message, user}
// POST /api/admin/send-notification      {user_id, subject, message, notification_type} → {message}
// GET  /api/admin/posts                  articles, newest first: skip, limit (50), search (title or
//                                        author), status (all | active | archived) → {posts, total}
// DELETE /api/admin/delete-post/:id      ?reason= (required): removes the article, tells its author
import { Router } from 'express';
import { requireAdmin } from '../session.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, choiceOf, idOf, pageOf, queryText } from '../http.ts';
import { ARTICLE_NOT_FOUND } from '../posts/posts.service.ts';
import { normalizeLine } from '../../shared/text.ts';
import { parseBan, parseLevelChange, parseNotification } from './admin.input.ts';
import {
  adminStats, banUser, changeUserLevel, deletePostWithReason, listBanned, listPostsForAdmin, listUsers,
  sendNotification, unbanUser, USER_NOT_FOUND,
} from './admin.service.ts';

export function adminRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/admin/users', async (req, res) => {
    requireAdmin(req);
    const page = pageOf(req, 50);
    const level = choiceOf(req, 'level', ['all', 'user', 'admin'], 'all');
    const search = queryText(req, 'search');
    res.json(await listUsers(ctx, { level: level === 'all' ? undefined : level, search }, page));
  });

  router.get('/admin/stats', async (req, res) => {
    requireAdmin(req);
    res.json(await adminStats(ctx));
  });

  router.get('/admin/banned-users', async (req, res) => {
    requireAdmin(req);
    res.json(await listBanned(ctx, pageOf(req, 50)));
  });

  router.post('/admin/update-user-level', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await changeUserLevel(ctx, admin, parseLevelChange(bodyOf(req))));
  });

  router.post('/admin/ban-user', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await banUser(ctx, admin, parseBan(bodyOf(req))));
  });

  router.post('/admin/unban-user/:id', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await unbanUser(ctx, admin, idOf(req.params.id, USER_NOT_FOUND)));
  });

  router.post('/admin/send-notification', async (req, res) => {
    const admin = requireAdmin(req);
    res.json(await sendNotification(ctx, admin, parseNotification(bodyOf(req))));
  });

  router.get('/admin/posts', async (req, res) => {
    requireAdmin(req);
    const page = pageOf(req, 50);
    const status = choiceOf(req, 'status', ['all', 'active', 'archived'] as const, 'all');
    res.json(await listPostsForAdmin(ctx, queryText(req, 'search')?.trim(), status, page));
  });

  router.delete('/admin/delete-post/:id', async (req, res) => {
    const admin = requireAdmin(req);
    const postId = idOf(req.params.id, ARTICLE_NOT_FOUND);
    res.json(await deletePostWithReason(ctx, admin, postId, normalizeLine(queryText(req, 'reason') ?? '')));
  });

  return router;
}
