// The site's settings (DESIGN.md, Running a community): what an admin may write in the Settings
// tab, checked by the tab before saving and by the server again before storing.

export const REGISTRATION_MODES = ['open', 'approval', 'invite', 'closed'] as const;
export type RegistrationMode = typeof REGISTRATION_MODES[number];

/** The four pages, by the address each is read at (/about, /rules, /privacy, /terms). */
export const SITE_PAGES = ['about', 'rules', 'privacy', 'terms'] as const;
export type SitePage = typeof SITE_PAGES[number];

export const SITE_PAGE_TITLES: Readonly<Record<SitePage, string>> = {
  about: 'About',
  rules: 'Rules',
  privacy: 'Privacy Policy',
  terms: 'Terms of Service',
};

export const DEFAULT_SITE_NAME = 'Beatnik';

export const SITE_NAME_MAX = 60;
export const SITE_TAGLINE_MAX = 120;
export const SITE_DESCRIPTION_MAX = 300;
/** A page is read whole: long enough for a real privacy policy, short of a book. */
export const SITE_PAGE_MAX = 50_000;

export const SITE_NAME_REQUIRED_MESSAGE = 'Please enter a name for the site';
export const SITE_NAME_LENGTH_MESSAGE = `The name cannot exceed ${SITE_NAME_MAX} characters`;
export const SITE_TAGLINE_LENGTH_MESSAGE = `The tagline cannot exceed ${SITE_TAGLINE_MAX} characters`;
export const SITE_DESCRIPTION_LENGTH_MESSAGE = `The description cannot exceed ${SITE_DESCRIPTION_MAX} characters`;
export const SITE_PAGE_LENGTH_MESSAGE = `A page cannot exceed ${SITE_PAGE_MAX.toLocaleString('en-US')} characters`;
export const REGISTRATION_MODE_MESSAGE = `Registration must be one of ${REGISTRATION_MODES.join(', ')}`;
export const SITE_SAVED_MESSAGE = 'Site settings saved';
