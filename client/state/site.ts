// The site's settings as every page shows them (GET /api/site): its name in the masthead and the
// tab title, the footer's links to the pages written, whether registration is open, whether the
// fediverse can follow its authors. The server
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
  federation: { enabled: false, host: '' },
};

export const SiteContext = createContext<SiteInfo>(DEFAULT_SITE);

/** What an admin may change: federation is the environment's, kept as the document said. */
export type SavedSite = Omit<SiteInfo, 'federation'>;

/** Settings saved since the page was opened, in this browser (the admin's own). */
const saved = signal<SavedSite | undefined>(undefined);

export function useSite(): SiteInfo {
  useSignals();
  const embedded = useContext(SiteContext);
  return saved.value ? { ...embedded, ...saved.value } : embedded;
}

export function siteSaved(site: SavedSite): void {
  saved.value = site;
}

/** The settings the server wrote into this document. */
export function embeddedSite(): SiteInfo {
  const element = document.getElementById(SITE_DATA_ID);
  return element?.textContent ? JSON.parse(element.textContent) as SiteInfo : DEFAULT_SITE;
}
