// POST /api/auth/register    create an account (SPEC §5) → the user and its status, 'active' or 'pending' (approval mode)
// POST /api/auth/login       exchange email and password for an access token (or, with two-factor
//                            sign-in on, for {two_factor_required: true, challenge})
// POST /api/auth/login/2fa   {challenge, code} or {challenge, recovery_code} → the token, as a login gives it
// POST /api/auth/logout      end this session's token on the server (a banned user's too)
// POST /api/auth/logout-all  end every session of the signed-in user, this one included
// POST /api/auth/forgot-password  {email} → 202, whoever the address belongs to (mail on only)
// POST /api/auth/reset-password   {token, password} → a new password, every session ended (mail on only)
// POST /api/auth/verify-email     {token} → the link's address verified (mail on only)
// POST /api/auth/resend-verification  a new link for the signed-in user's address (mail on only)
import { Router } from 'express';
import { SESSION_CLOSED_MESSAGE, SIGNED_OUT_EVERYWHERE_MESSAGE, VERIFICATION_SENT_MESSAGE } from '../../shared/accounts.ts';
import type { AppContext } from '../context.ts';
import { bodyOf } from '../http.ts';
import { requireSessionToken, requireUser } from '../session.ts';
import { toPrivateUser } from '../users/users.view.ts';
import type { AuthLimits } from './auth.limits.ts';
import { login, register, type LoginResult } from './auth.service.ts';
import { completeTwoFactorLogin } from './two-factor.service.ts';
import { resendVerification, verifyEmail } from './email-verification.ts';
import { endAllSessions, endSession } from './sessions.service.ts';
import { RESET_DONE, RESET_REQUESTED, requestPasswordReset, resetAddress, resetPassword } from './password-reset.ts';

export function authRoutes(ctx: AppContext, limits: AuthLimits): Router {
  const router = Router();

  router.post('/auth/register', ...limits.register, async (req, res) => {
    const { user, status } = await register(ctx, bodyOf(req));
    res.status(201).json({ ...toPrivateUser(user), status });
  });

  router.post('/auth/login', async (req, res) => {
    const result = await login(ctx, bodyOf(req), { guard: limits.login, ip: req.ip ?? '' });
    if ('challenge' in result) res.json({ two_factor_required: true, challenge: result.challenge });
    else res.json(loginAnswer(result));
  });

  router.post('/auth/login/2fa', async (req, res) => {
    res.json(loginAnswer(await completeTwoFactorLogin(ctx, bodyOf(req), { guard: limits.login, ip: req.ip ?? '' })));
  });

  router.post('/auth/logout', async (req, res) => {
    await endSession(ctx.db, requireSessionToken(req));
    res.json({ message: SESSION_CLOSED_MESSAGE });
  });

  router.post('/auth/logout-all', async (req, res) => {
    await endAllSessions(ctx.db, requireUser(req).id);
    res.json({ message: SIGNED_OUT_EVERYWHERE_MESSAGE });
  });

  // Without mail there is no link to send: the two are not there at all (DESIGN.md, Mail).
  if (ctx.config.mail) {
    router.post('/auth/forgot-password', ...limits.forgotPassword, async (req, res) => {
      await requestPasswordReset(ctx, resetAddress(bodyOf(req)));
      res.status(202).json({ detail: RESET_REQUESTED });
    });

    router.post('/auth/reset-password', async (req, res) => {
      await resetPassword(ctx, bodyOf(req));
      res.json({ detail: RESET_DONE });
    });

    router.post('/auth/verify-email', async (req, res) => {
      res.json({ detail: await verifyEmail(ctx, bodyOf(req)) });
    });

    router.post('/auth/resend-verification', ...limits.resendVerification, async (req, res) => {
      await resendVerification(ctx, requireUser(req));
      res.status(202).json({ detail: VERIFICATION_SENT_MESSAGE });
    });
  }

  return router;
}

function loginAnswer({ user, accessToken }: LoginResult) {
  return { access_token: accessToken, token_type: 'bearer' as const, user: toPrivateUser(user) };
}
