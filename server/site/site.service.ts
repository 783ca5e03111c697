// The site's settings and its four pages (DESIGN.md, Running a community): what visitors read on
// every page (the name in titles and mail, the footer's links, who may register), kept in the read
// cache like the public lists so that a page costs no query for them, and an admin's changes,
// recorded in the moderation log when they change who may join.
import { keptRead } from '../cache/kept-read.ts';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { renderText } from '../markdown/markdown.service.ts';
import { recordModeration } from '../moderation/moderation.service.ts';
import type { UserRow } from '../schema.ts';
import {
  DEFAULT_SITE_NAME, SITE_PAGE_TITLES, SITE_PAGES, type RegistrationMode, type SitePage,
} from '../../shared/site-settings.ts';
import { parseSiteChange } from './site.input.ts';
import {
  deleteSitePage, findSitePage, findSiteSettings, findSiteSummary, listSitePages, saveSitePage,
  saveSiteSettings, type SiteSettingsRow,
} from './site.repo.ts';
import type { AdminSiteSettings, SiteFederation, SiteInfo, SitePageView } from './site.view.ts';

export type { AdminSiteSettings, SiteFederation, SiteInfo, SitePageView } from './site.view.ts';

export const PAGE_NOT_FOUND = 'Page not found';

const DEFAULTS: SiteSettingsRow = { name: DEFAULT_SITE_NAME, tagline: '', description: '', contact_email: '', registration: null };

export function siteInfo(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>): Promise<SiteInfo> {
  return keptRead(ctx, 'site info', async () => {
    const { settings, pages } = await findSiteSummary(ctx.db);
    return { ...publicSettings(ctx, settings ?? DEFAULTS), pages: pageFlags(pages), federation: federationOf(ctx) };
  });
}

/** The site's name, for mail, feeds and the pages' heads. */
export async function siteName(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>): Promise<string> {
  return (await siteInfo(ctx)).name;
}

/** Whose mail it is (mail/mail.compose.ts): PUBLIC_URL and the site's name. */
export async function mailSite(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>): Promise<{ url: string; name: string }> {
  return { url: ctx.config.publicUrl, name: await siteName(ctx) };
}

/** Who may join now: the mode an admin chose, or REGISTRATION until one has. */
export async function registrationMode(ctx: Pick<AppContext, 'db' | 'config' | 'readCache'>): Promise<RegistrationMode> {
  return (await siteInfo(ctx)).registration;
}

export async function sitePage(ctx: AppContext, page: string): Promise<SitePageView> {
  const slug = SITE_PAGES.find((known) => known === page);
  const row = slug && await findSitePage(ctx.db, slug);
  if (!slug || !row) throw notFound(PAGE_NOT_FOUND);
  return { page: slug, title: SITE_PAGE_TITLES[slug], content_html: row.content_html, updated_at: row.updated_at };
}

export async function adminSiteSettings(ctx: AppContext): Promise<AdminSiteSettings> {
  const [settings, pages] = await Promise.all([findSiteSettings(ctx.db), listSitePages(ctx.db)]);
  const sources = Object.fromEntries(SITE_PAGES.map((slug) => [slug, pages.find((p) => p.slug === slug)?.content ?? ''])) as Record<SitePage, string>;
  return { ...publicSettings(ctx, settings ?? DEFAULTS), pages: sources };
}

export async function updateSiteSettings(ctx: AppContext, admin: UserRow, body: Body): Promise<AdminSiteSettings> {
  const { pages, ...fields } = parseSiteChange(body);
  // Rendered before the transaction: it looks up the users a page mentions.
  const rendered = await Promise.all(Object.entries(pages).map(async ([slug, content]) =>
    ({ slug: slug as SitePage, content, html: content ? (await renderText(ctx, content)).html : '' })));
  await ctx.db.transaction().execute(async (trx) => {
    const before = await findSiteSettings(trx) ?? DEFAULTS;
    const inForce = before.registration ?? ctx.config.registration;
    await saveSiteSettings(trx, { ...before, ...fields });
    for (const page of rendered) {
      if (page.content) await saveSitePage(trx, page.slug, page.content, page.html);
      else await deleteSitePage(trx, page.slug);
    }
    if (fields.registration && fields.registration !== inForce) {
      await recordModeration(trx, { adminId: admin.id, action: 'registration', targetUserId: null, reason: fields.registration });
    }
  });
  return adminSiteSettings(ctx);
}

function publicSettings(ctx: Pick<AppContext, 'config'>, row: SiteSettingsRow): Omit<SiteInfo, 'pages' | 'federation'> {
  return {
    name: row.name, tagline: row.tagline, description: row.description, contact_email: row.contact_email,
    registration: row.registration ?? ctx.config.registration,
  };
}

/** The environment's, not an admin's: FEDERATION and PUBLIC_URL. */
function federationOf(ctx: Pick<AppContext, 'config'>): SiteFederation {
  return { enabled: ctx.config.federation.enabled, host: new URL(ctx.config.publicUrl).host };
}

function pageFlags(written: readonly SitePage[]): Record<SitePage, boolean> {
  return Object.fromEntries(SITE_PAGES.map((slug) => [slug, written.includes(slug)])) as Record<SitePage, boolean>;
}
