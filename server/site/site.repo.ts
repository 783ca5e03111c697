// SQL for the site's settings and its four pages (migrations/0018_site_settings.ts). The settings
// are one row, absent until first saved; the pages one row each while written.
import { nowIso } from '../db.ts';
import type { DB, SitePagesTable, SiteSettingsTable } from '../schema.ts';
import type { SitePage } from '../../shared/site-settings.ts';

export type SiteSettingsRow = Omit<SiteSettingsTable, 'id' | 'updated_at'>;
export type SitePageRow = SitePagesTable;

export async function findSiteSettings(db: DB): Promise<SiteSettingsRow | undefined> {
  return db.selectFrom('site_settings')
    .select(['name', 'tagline', 'description', 'contact_email', 'registration'])
    .where('id', '=', 1)
    .executeTakeFirst();
}

/** Writes the whole row: the service merges a change into what is stored first. */
export async function saveSiteSettings(db: DB, settings: SiteSettingsRow): Promise<void> {
  const row = { ...settings, updated_at: nowIso() };
  await db.insertInto('site_settings').values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** Which pages are written. */
export async function listSitePageSlugs(db: DB): Promise<SitePage[]> {
  const rows = await db.selectFrom('site_pages').select('slug').execute();
  return rows.map((row) => row.slug);
}

export async function listSitePages(db: DB): Promise<SitePageRow[]> {
  return db.selectFrom('site_pages').selectAll().execute();
}

export async function findSitePage(db: DB, slug: SitePage): Promise<SitePageRow | undefined> {
  return db.selectFrom('site_pages').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function saveSitePage(db: DB, slug: SitePage, content: string, contentHtml: string): Promise<void> {
  const row = { content, content_html: contentHtml, updated_at: nowIso() };
  await db.insertInto('site_pages').values({ slug, ...row })
    .onConflict((oc) => oc.column('slug').doUpdateSet(row))
    .execute();
}

export async function deleteSitePage(db: DB, slug: SitePage): Promise<void> {
  await db.deleteFrom('site_pages').where('slug', '=', slug).execute();
}
