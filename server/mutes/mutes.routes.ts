// GET    /api/users/me/mutes                 what I muted → {users, hashtags, remote}
// PUT    /api/users/me/mutes/users/:id       mute an author (idempotent) → {message, muted}
// DELETE /api/users/me/mutes/users/:id       unmute an author (idempotent) → same
// PUT    /api/users/me/mutes/hashtags/:tag   mute a hashtag, normalised as posts' are (idempotent) → {message, muted, hashtag}
// DELETE /api/users/me/mutes/hashtags/:tag   unmute a hashtag (idempotent) → same
// PUT    /api/users/me/mutes/remote/:handle  mute a fediverse author met here, user@server (idempotent) → {message, muted}
// DELETE /api/users/me/mutes/remote/:handle  unmute them (idempotent) → same
import { Router } from 'express';
import { MUTE_SIGN_IN_MESSAGE } from '../../shared/mutes.ts';
import type { AppContext } from '../context.ts';
import { idOf } from '../http.ts';
import { requireUser } from '../session.ts';
import { USER_NOT_FOUND } from '../users/users.service.ts';
import { changeHashtagMute, changeRemoteMute, changeUserMute, mutesOf } from './mutes.service.ts';

export function mutesRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/users/me/mutes', async (req, res) => {
    res.json(await mutesOf(ctx, requireUser(req)));
  });

  for (const [method, mute] of [['put', true], ['delete', false]] as const) {
    router[method]('/users/me/mutes/users/:id', async (req, res) => {
      const user = requireUser(req, MUTE_SIGN_IN_MESSAGE);
      res.json(await changeUserMute(ctx, user, idOf(req.params.id, USER_NOT_FOUND), mute));
    });
    router[method]('/users/me/mutes/hashtags/:tag', async (req, res) => {
      const user = requireUser(req, MUTE_SIGN_IN_MESSAGE);
      res.json(await changeHashtagMute(ctx, user, req.params.tag, mute));
    });
    router[method]('/users/me/mutes/remote/:handle', async (req, res) => {
      const user = requireUser(req, MUTE_SIGN_IN_MESSAGE);
      res.json(await changeRemoteMute(ctx, user, req.params.handle, mute));
    });
  }

  return router;
}
