// Parsing an admin's change to the site's settings (PUT /api/admin/site): every field optional,
// each checked as the Settings tab checks it (shared/site-settings.ts); a bad one refuses the whole
// change.
import { EMAIL_MAX, EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '../../shared/accounts.ts';
import {
  REGISTRATION_MODE_MESSAGE, REGISTRATION_MODES, SITE_DESCRIPTION_LENGTH_MESSAGE, SITE_DESCRIPTION_MAX,
  SITE_NAME_LENGTH_MESSAGE, SITE_NAME_MAX, SITE_NAME_REQUIRED_MESSAGE, SITE_PAGE_LENGTH_MESSAGE, SITE_PAGE_MAX,
  SITE_PAGES, SITE_TAGLINE_LENGTH_MESSAGE, SITE_TAGLINE_MAX, type RegistrationMode, type SitePage,
} from '../../shared/site-settings.ts';
import { textLength } from '../../shared/text.ts';
import { badRequest } from '../errors.ts';
import { lineText, multilineText, type Body } from '../http.ts';

export interface SiteChange {
  name?: string;
  tagline?: string;
  description?: string;
  /** '' clears it. */
  contact_email?: string;
  registration?: RegistrationMode;
  /** A page's new Markdown; '' takes the page down. */
  pages: Partial<Record<SitePage, string>>;
}

export function parseSiteChange(body: Body): SiteChange {
  const change: SiteChange = { pages: {} };
  const name = lineOf(body, 'name');
  if (name !== undefined) {
    if (!name) throw badRequest(SITE_NAME_REQUIRED_MESSAGE);
    if (textLength(name) > SITE_NAME_MAX) throw badRequest(SITE_NAME_LENGTH_MESSAGE);
    change.name = name;
  }
  const tagline = lineOf(body, 'tagline');
  if (tagline !== undefined) {
    if (textLength(tagline) > SITE_TAGLINE_MAX) throw badRequest(SITE_TAGLINE_LENGTH_MESSAGE);
    change.tagline = tagline;
  }
  const description = lineOf(body, 'description');
  if (description !== undefined) {
    if (textLength(description) > SITE_DESCRIPTION_MAX) throw badRequest(SITE_DESCRIPTION_LENGTH_MESSAGE);
    change.description = description;
  }
  const email = lineOf(body, 'contact_email');
  if (email !== undefined) {
    if (email && (email.length > EMAIL_MAX || !isValidEmail(email))) throw badRequest(EMAIL_MESSAGE);
    change.contact_email = email && normalizeEmail(email);
  }
  if (body.registration !== undefined) {
    if (!REGISTRATION_MODES.includes(body.registration as RegistrationMode)) throw badRequest(REGISTRATION_MODE_MESSAGE);
    change.registration = body.registration as RegistrationMode;
  }
  if (body.pages !== undefined) {
    const pages = body.pages;
    if (!pages || typeof pages !== 'object' || Array.isArray(pages)) throw badRequest('pages must be an object of about, rules, privacy and terms');
    for (const [slug, value] of Object.entries(pages as Body)) {
      if (!SITE_PAGES.includes(slug as SitePage)) throw badRequest(`There is no page "${slug}": pages are ${SITE_PAGES.join(', ')}`);
      const content = multilineText(pages as Body, slug);
      if (content === undefined) throw badRequest(`The page "${slug}" must be text`);
      if (textLength(content) > SITE_PAGE_MAX) throw badRequest(SITE_PAGE_LENGTH_MESSAGE);
      change.pages[slug as SitePage] = content;
    }
  }
  return change;
}

/** A one-line field: undefined when absent; a 400 when present but not text. */
function lineOf(body: Body, name: string): string | undefined {
  if (body[name] === undefined) return undefined;
  const value = lineText(body, name);
  if (value === undefined) throw badRequest(`${name} must be text`);
  return value;
}
