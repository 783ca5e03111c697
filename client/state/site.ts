// The site's settings as every page shows them (GET /api/site): its name in the masthead and the
// tab title, the footer's links to the pages written, whether registration is open. The server
// writes them into every document it sends (server/pages/), so the first render already has them;
// Root provides them, and an admin's save replaces them here at once.
import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { createContext, useContext } from 'react';
import type { SiteInfo } from '../../server/site/site.view.ts';
import { DEFAULT_SITE_NAME } from '../../shared/site-settings.ts';
import { SITE_DATA_ID } from '../page-data.ts';

/** What a document without settings (a test's stand-in shell) shows. */
export const DEFAULT_SITE: SiteInfo = {
  name: DEFAULT_SITE_NAME, tagline: '', description: '', contact_email: '', registration: 'open',
  pages: { about: false, rules: false, privacy: false, terms: false },
};

export const SiteContext = createContext<SiteInfo>(DEFAULT_SITE);

/** Settings saved since the page was opened, in this browser (the admin's own). */
const saved = signal<SiteInfo | undefined>(undefined);

export function useSite(): SiteInfo {
  useSignals();
  const embedded = useContext(SiteContext);
  return saved.value ?? embedded;
}

export function siteSaved(site: SiteInfo): void {
  saved.value = site;
}

/** The settings the server wrote into this document. */
export function embeddedSite(): SiteInfo {
  const element = document.getElementById(SITE_DATA_ID);
  return element?.textContent ? JSON.parse(element.textContent) as SiteInfo : DEFAULT_SITE;
}
