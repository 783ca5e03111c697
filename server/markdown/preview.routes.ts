// POST /api/preview   signed in, throttled: {content} (Markdown, ≤ 10,000 characters)
//                     → {content_html}: exactly what the server would store for it (DESIGN.md, Writing)
import { Router } from 'express';
import { CONTENT_MAX } from '../../shared/articles.ts';
import { textLength } from '../../shared/text.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { bodyOf, multilineText } from '../http.ts';
import { previewLimit } from '../rate-limits.ts';
import { requireUser } from '../session.ts';
import { renderText } from './markdown.service.ts';

export const PREVIEW_TOO_LONG = 'Text cannot exceed 10,000 characters';

export function previewRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/preview', previewLimit(ctx), async (req, res) => {
    requireUser(req, 'You must sign in to preview');
    const content = multilineText(bodyOf(req), 'content');
    if (content === undefined) throw badRequest('content must be text');
    if (textLength(content) > CONTENT_MAX) throw badRequest(PREVIEW_TOO_LONG);
    res.json({ content_html: (await renderText(ctx, content)).html });
  });

  return router;
}
