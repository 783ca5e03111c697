// GET /robots.txt            crawl everything but the API and the signed-in screens; names the sitemap
// GET /sitemap.xml           every active article and every author with one, with lastmod; past
//                            50,000 URLs a sitemap index of the files below (docs/feeds.md)
// GET /sitemap-{n}.xml       the n-th 50,000 of those URLs (404 past the last)
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { createDocumentCache, sendDocument } from '../cache/document-cache.ts';
import { robotsTxt, sitemapIndexXml, SITEMAP_TYPE, urlsetXml } from './sitemap.render.ts';
import { sitemapFile, sitemapRoot } from './sitemap.service.ts';

/** Three full sitemap files (about 5 MB each): 100,000 articles and their authors. */
const SITEMAP_CACHE_BYTES = 16 * 1024 * 1024;

export function sitemapRoutes(ctx: AppContext): Router {
  const router = Router();
  const origin = ctx.config.publicUrl;
  const documents = createDocumentCache(ctx.readCache, { maxBytes: SITEMAP_CACHE_BYTES });
  const robots = robotsTxt(origin);

  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain; charset=utf-8').send(robots);
  });

  router.get('/sitemap.xml', async (req, res) => {
    sendDocument(req, res, await documents.get('root', async () => {
      const sitemap = await sitemapRoot(ctx);
      const body = 'files' in sitemap ? sitemapIndexXml(origin, sitemap.files) : urlsetXml(origin, sitemap.urls);
      return { body, type: SITEMAP_TYPE };
    }));
  });

  router.get(/^\/sitemap-(\d{1,9})\.xml$/, async (req, res) => {
    const file = Number(req.params[0]);
    sendDocument(req, res, await documents.get(`file ${file}`, async () =>
      ({ body: urlsetXml(origin, await sitemapFile(ctx, file)), type: SITEMAP_TYPE })));
  });

  return router;
}
