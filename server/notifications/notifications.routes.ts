// GET  /api/notifications                 own notifications, newest first: skip, limit (20, max 100),
//                                         unread_only → {notifications, total, unread_count}
// POST /api/notifications/mark-all-read   → {message, unread_count: 0}
// POST /api/notifications/:id/mark-read   own only, idempotent → {message, unread_count}
import { Router } from 'express';
import { requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { flagOf, idOf, pageOf } from '../http.ts';
import { markAllRead, markRead, NOTIFICATION_NOT_FOUND, notificationsOf } from './notifications.service.ts';

export function notificationsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/notifications', async (req, res) => {
    const user = requireUser(req);
    const page = pageOf(req, 20);
    res.json(await notificationsOf(ctx, user, flagOf(req, 'unread_only'), page));
  });

  router.post('/notifications/mark-all-read', async (req, res) => {
    await markAllRead(ctx, requireUser(req));
    res.json({ message: 'All notifications marked as read', unread_count: 0 });
  });

  router.post('/notifications/:id/mark-read', async (req, res) => {
    const user = requireUser(req);
    const unread = await markRead(ctx, user, idOf(req.params.id, NOTIFICATION_NOT_FOUND));
    res.json({ message: 'Notification marked as read', unread_count: unread });
  });

  return router;
}
