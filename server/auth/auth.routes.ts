// POST /api/auth/register  create an account (SPEC §5)
// POST /api/auth/login     exchange email and password for an access token
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf } from '../http.ts';
import { toPrivateUser } from '../users/users.view.ts';
import { authLimits } from './auth.limits.ts';
import { login, register } from './auth.service.ts';

export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  const limits = authLimits(ctx);

  router.post('/auth/register', ...limits.register, async (req, res) => {
    const user = await register(ctx, bodyOf(req));
    res.status(201).json(toPrivateUser(user));
  });

  router.post('/auth/login', async (req, res) => {
    const { user, accessToken } = await login(ctx, bodyOf(req), { guard: limits.login, ip: req.ip ?? '' });
    res.json({ access_token: accessToken, token_type: 'bearer', user: toPrivateUser(user) });
  });

  return router;
}
