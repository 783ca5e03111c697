// POST   /api/users/me/two-factor/setup  {password} → {secret, otpauth_uri, qr_svg}: a secret waiting for its first code
// POST   /api/users/me/two-factor        {code} → {detail, recovery_codes, user}: on, with 10 single-use recovery codes
// DELETE /api/users/me/two-factor        {password, code} or {password, recovery_code} → {detail, user}: off
// (The login's second step, POST /api/auth/login/2fa, is with the login in auth.routes.ts.)
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf } from '../http.ts';
import { requireUser } from '../session.ts';
import type { LoginGuard } from './login-throttle.ts';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup } from './two-factor.service.ts';

/** `guard` is the login's own throttle: the password and codes guessed here count as guessed there. */
export function twoFactorRoutes(ctx: AppContext, guard: LoginGuard): Router {
  const router = Router();
  const client = (ip: string | undefined) => ({ guard, ip: ip ?? '' });

  router.post('/users/me/two-factor/setup', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await startTwoFactorSetup(ctx, requireUser(req), bodyOf(req), client(req.ip)));
  });

  router.post('/users/me/two-factor', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await enableTwoFactor(ctx, requireUser(req), bodyOf(req)));
  });

  router.delete('/users/me/two-factor', async (req, res) => {
    res.json(await disableTwoFactor(ctx, requireUser(req), bodyOf(req), client(req.ip)));
  });

  return router;
}
