// The site's settings and pages as the API answers them (DESIGN.md, Running a community).
import type { RegistrationMode, SitePage } from '../../shared/site-settings.ts';

/** GET /api/site: what every visitor's page needs to know of the site. */
export interface SiteInfo {
  name: string;
  tagline: string;
  description: string;
  contact_email: string;
  registration: RegistrationMode;
  /** Each page true when written: the footer links it and its address reads it. */
  pages: Record<SitePage, boolean>;
  /** ActivityPub (FEDERATION): on or off, and the host of PUBLIC_URL, the part after the second @
   * of an author's `@username@host` handle. */
  federation: SiteFederation;
}

export interface SiteFederation {
  enabled: boolean;
  host: string;
}

/** GET and PUT /api/admin/site: the same, with each page's Markdown ('' while not written). */
export interface AdminSiteSettings extends Omit<SiteInfo, 'pages' | 'federation'> {
  pages: Record<SitePage, string>;
}

/** GET /api/site/pages/{page}: a written page. */
export interface SitePageView {
  page: SitePage;
  title: string;
  content_html: string;
  updated_at: string;
}
