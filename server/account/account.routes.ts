// PUT    /api/users/me/password  {current_password, new_password, confirm_password?} → {access_token}; other sessions end
// PUT    /api/users/me/email     {email, password} → {message, user}
// GET    /api/users/me/export    everything of the account, as a JSON attachment
// DELETE /api/users/me           {password}: the account and everything of it, counters corrected
import { Router } from 'express';
import type { LoginGuard } from '../auth/login-throttle.ts';
import type { AppContext } from '../context.ts';
import { bodyOf } from '../http.ts';
import { requireAccountOwner } from '../session.ts';
import { exportFileName } from '../../shared/accounts.ts';
import { exportAccount } from './account.export.ts';
import { deleteAccount } from './account.removal.ts';
import { changeEmail, changePassword } from './account.service.ts';

/** `guard` is the login's own throttle: a password guessed here counts as one guessed there. */
export function accountRoutes(ctx: AppContext, guard: LoginGuard): Router {
  const router = Router();
  const client = (ip: string | undefined) => ({ guard, ip: ip ?? '' });

  router.put('/users/me/password', async (req, res) => {
    res.json(await changePassword(ctx, requireAccountOwner(req), bodyOf(req), client(req.ip)));
  });

  router.put('/users/me/email', async (req, res) => {
    res.json(await changeEmail(ctx, requireAccountOwner(req), bodyOf(req), client(req.ip)));
  });

  router.get('/users/me/export', async (req, res) => {
    const user = requireAccountOwner(req);
    const now = new Date();
    const data = await exportAccount(ctx, user, now);
    res.set('Cache-Control', 'no-store').attachment(exportFileName(user.username, now)).json(data);
  });

  router.delete('/users/me', async (req, res) => {
    res.json(await deleteAccount(ctx, requireAccountOwner(req), bodyOf(req), client(req.ip)));
  });

  return router;
}
