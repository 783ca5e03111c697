// The site's name and one-line description, in every tab title and link preview: written by the
// server into the pages it renders (server/pages/) and by the client as it moves between them.
// The name is the admin's to choose (Settings tab, shared/site-settings.ts).

/** What the site is, for pages without a description of their own, while the admin wrote none. */
export function siteDescription(site: { name: string; description: string }): string {
  return site.description || `${site.name}: short black-and-white articles from a community of writers.`;
}

/** An author's page, /beatnik/{username}: what every link to a profile points at. */
export function profilePath(username: string): string {
  return `/beatnik/${encodeURIComponent(username)}`;
}

/** A page's tab title, 'The Pulse · Beatnik'; the site's name alone for a page without one. */
export function documentTitle(title: string, siteName: string): string {
  return title ? `${title} · ${siteName}` : siteName;
}
