// Sitemap XML (sitemaps.org 0.9) and robots.txt, every URL absolute from PUBLIC_URL.
import { escapeMarkup } from '../markup.ts';
import type { SitemapEntry } from './sitemap.service.ts';

export const SITEMAP_TYPE = 'application/xml; charset=utf-8';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const XMLNS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

export function urlsetXml(origin: string, entries: SitemapEntry[]): string {
  const urls = entries.map((e) =>
    `<url><loc>${escapeMarkup(origin + e.path)}</loc>${e.lastmod ? `<lastmod>${escapeMarkup(e.lastmod)}</lastmod>` : ''}</url>\n`);
  return `${HEAD}<urlset ${XMLNS}>\n${urls.join('')}</urlset>\n`;
}

export function sitemapIndexXml(origin: string, files: number): string {
  const items = Array.from({ length: files }, (_, i) => `<sitemap><loc>${escapeMarkup(`${origin}/sitemap-${i + 1}.xml`)}</loc></sitemap>\n`);
  return `${HEAD}<sitemapindex ${XMLNS}>\n${items.join('')}</sitemapindex>\n`;
}

/** Paths no crawler has anything to find in: the API and the signed-in screens. */
export const PRIVATE_PATHS = ['/api/', '/admin', '/write', '/profile', '/settings', '/notifications'];

export function robotsTxt(origin: string): string {
  return ['User-agent: *', ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`), 'Allow: /', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}
