// The site's name and one-line description, in every tab title and link preview: written by the
// server into the pages it renders (server/pages/) and by the client as it moves between them.

export const SITE_NAME = 'Beatnik';

/** What Beatnik is, for pages without a description of their own (client/index.html says it too). */
export const SITE_DESCRIPTION = 'Beatnik: short black-and-white articles from a community of writers.';

/** An author's page, /beatnik/{username}: what every link to a profile points at. */
export function profilePath(username: string): string {
  return `/beatnik/${encodeURIComponent(username)}`;
}

/** A page's tab title, 'The Pulse · Beatnik'; the site's name alone for a page without one. */
export function documentTitle(title: string): string {
  return title ? `${title} · ${SITE_NAME}` : SITE_NAME;
}
