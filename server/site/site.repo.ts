// SQL for the site's settings and its four pages (migrations/0018_site_settings.ts). The settings
// are one row, absent until first saved; the pages one row each while written.
import { sql } from 'kysely';
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

/** The settings (absent until first saved) and which pages are written, in one query: what every
 * page and mail reads, again after each write. */
export async function findSiteSummary(db: DB): Promise<{ settings: SiteSettingsRow | undefined; pages: SitePage[] }> {
  const rows = await db.selectFrom('site_settings')
    .select([sql<string>`'settings'`.as('row'), 'name', 'tagline', 'description', 'contact_email', 'registration'])
    .unionAll(db.selectFrom('site_pages').select([sql<string>`'page'`.as('row'), 'slug as name',
      sql<string>`''`.as('tagline'), sql<string>`''`.as('description'), sql<string>`''`.as('contact_email'),
      sql<SiteSettingsRow['registration']>`NULL`.as('registration')]))
    .execute();
  const settings = rows.find((r) => r.row === 'settings');
  return {
    settings: settings && { name: settings.name, tagline: settings.tagline, description: settings.description, contact_email: settings.contact_email, registration: settings.registration },
    pages: rows.filter((r) => r.row === 'page').map((r) => r.name as SitePage),
  };
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
