// GET /api/site                 → {name, tagline, description, contact_email, registration, pages: {about, rules, privacy, terms}, federation: {enabled, host}}
// GET /api/site/pages/:page     → {page, title, content_html, updated_at}; 404 'Page not found' while not written
// GET /api/admin/site           (admins) → the settings with each page's Markdown
// PUT /api/admin/site           (admins) any of {name, tagline, description, contact_email, registration, pages: {about?, …}} → the same
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { bodyOf } from '../http.ts';
import { requireAdmin } from '../session.ts';
import { adminSiteSettings, siteInfo, sitePage, updateSiteSettings } from './site.service.ts';

export function siteRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/site', async (_req, res) => {
    res.json(await siteInfo(ctx));
  });

  router.get('/site/pages/:page', async (req, res) => {
    res.json(await sitePage(ctx, req.params.page));
  });

  router.get('/admin/site', async (req, res) => {
    requireAdmin(req);
    res.json(await adminSiteSettings(ctx));
  });

  router.put('/admin/site', async (req, res) => {
    res.json(await updateSiteSettings(ctx, requireAdmin(req), bodyOf(req)));
  });

  return router;
}
