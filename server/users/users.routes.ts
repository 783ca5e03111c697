// GET /api/users/me  the signed-in user, with their private fields
import { Router } from 'express';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppContext } from '../context.ts';
import { toPrivateUser } from './users.view.ts';

export function usersRoutes(_ctx: AppContext): Router {
  const router = Router();

  router.get('/users/me', (req, res) => {
    res.json(toPrivateUser(requireUser(req)));
  });

  return router;
}
