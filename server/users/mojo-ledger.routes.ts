// GET /api/users/:id/mojo   how the user's mojo was earned: skip, limit (50, max 100) → {mojo, events, total}, newest first
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { idOf, pageOf } from '../http.ts';
import { USER_NOT_FOUND, findUserOr404 } from './users.service.ts';
import { MOJO_PAGE, MOJO_PAGE_MAX, mojoLedger } from './mojo-ledger.service.ts';

export function mojoRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/users/:id/mojo', async (req, res) => {
    const user = await findUserOr404(ctx.db, idOf(req.params.id, USER_NOT_FOUND));
    res.json(await mojoLedger(ctx.db, user, pageOf(req, MOJO_PAGE, MOJO_PAGE_MAX)));
  });

  return router;
}
