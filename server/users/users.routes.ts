// GET /api/users/me                     the signed-in user, with their private fields
// GET /api/users/me/stats               my dashboard: totals over my active articles, article and follow counts
// PUT /api/users/me                     edit one's profile: multipart or JSON username, bio; avatar file; remove_avatar
// GET /api/users/by-username/:username  a user by name, case-insensitively (+ is_following for a reader)
// GET /api/users/:id                    a user by id (+ is_following; private fields to self and admins)
import { Router } from 'express';
import { optionalUser, requireAccountOwner, requireUser } from '../session.ts';
import type { AppContext } from '../context.ts';
import { bodyOf, idOf } from '../http.ts';
import { AVATAR_MAX_BYTES } from '../../shared/accounts.ts';
import { imageTooLargeMessage } from '../../shared/images.ts';
import { singleImageUpload } from '../images/upload.ts';
import {
  USER_NOT_FOUND, findUserByUsernameOr404, findUserOr404, updateProfile, userForReader,
} from './users.service.ts';
import { myStats } from './users.stats.ts';
import { toPrivateUser } from './users.view.ts';

export function usersRoutes(ctx: AppContext): Router {
  const router = Router();
  const avatarForm = singleImageUpload('avatar', AVATAR_MAX_BYTES, imageTooLargeMessage(AVATAR_MAX_BYTES));

  router.get('/users/me', (req, res) => {
    res.json(toPrivateUser(requireAccountOwner(req)));
  });

  router.get('/users/me/stats', async (req, res) => {
    res.json(await myStats(ctx, requireUser(req)));
  });

  router.put('/users/me', avatarForm, async (req, res) => {
    const user = await updateProfile(ctx, requireAccountOwner(req), bodyOf(req), req.file);
    res.json(toPrivateUser(user));
  });

  router.get('/users/by-username/:username', async (req, res) => {
    const user = await findUserByUsernameOr404(ctx, req.params.username);
    res.json(await userForReader(ctx, user, optionalUser(req)));
  });

  router.get('/users/:id', async (req, res) => {
    const user = await findUserOr404(ctx.db, idOf(req.params.id, USER_NOT_FOUND));
    res.json(await userForReader(ctx, user, optionalUser(req)));
  });

  return router;
}
