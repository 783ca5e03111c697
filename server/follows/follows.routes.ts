// POST   /api/follow/:id                           follow a user (idempotent) → {message, following, followers_count}
// DELETE /api/follow/:id                           unfollow a user (idempotent) → same
// POST   /api/users/by-username/:username/follow   toggle following a user by name → same
// GET    /api/users/:id/followers                  who follows the user: skip, limit (50, max 1000) → {followers, total}
// GET    /api/users/:id/following                  whom the user follows: skip, limit (50, max 1000) → {following, total}
// GET    /api/users/:id/remote-followers           who follows the user from the fediverse: skip, limit (50, max 1000) → {remote_followers, total}
import { Router } from 'express';
import { optionalUser, requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { idOf, pageOf } from '../http.ts';
import { USER_NOT_FOUND, findUserByUsernameOr404, findUserOr404 } from '../users/users.service.ts';
import { FOLLOW_SIGN_IN, changeFollow, listFollows, listRemoteFollowers } from './follows.service.ts';

export function followsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/follow/:id', async (req, res) => {
    const user = requireUser(req, FOLLOW_SIGN_IN);
    res.json(await changeFollow(ctx, user, idOf(req.params.id, USER_NOT_FOUND), 'follow'));
  });

  router.delete('/follow/:id', async (req, res) => {
    const user = requireUser(req, FOLLOW_SIGN_IN);
    res.json(await changeFollow(ctx, user, idOf(req.params.id, USER_NOT_FOUND), 'unfollow'));
  });

  router.post('/users/by-username/:username/follow', async (req, res) => {
    const user = requireUser(req, FOLLOW_SIGN_IN);
    const followee = await findUserByUsernameOr404(ctx, req.params.username);
    res.json(await changeFollow(ctx, user, followee.id, 'toggle'));
  });

  router.get('/users/:id/followers', async (req, res) => {
    const user = await findUserOr404(ctx.db, idOf(req.params.id, USER_NOT_FOUND));
    const { items, total } = await listFollows(ctx, 'followers', user, pageOf(req, 50, 1000), optionalUser(req));
    res.json({ followers: items, total });
  });

  router.get('/users/:id/following', async (req, res) => {
    const user = await findUserOr404(ctx.db, idOf(req.params.id, USER_NOT_FOUND));
    const { items, total } = await listFollows(ctx, 'following', user, pageOf(req, 50, 1000), optionalUser(req));
    res.json({ following: items, total });
  });

  router.get('/users/:id/remote-followers', async (req, res) => {
    const user = await findUserOr404(ctx.db, idOf(req.params.id, USER_NOT_FOUND));
    const { items, total } = await listRemoteFollowers(ctx, user, pageOf(req, 50, 1000));
    res.json({ remote_followers: items, total });
  });

  return router;
}
