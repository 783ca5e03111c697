// A page the server rendered (server/pages/) carries the answers of its first API reads, keyed by
// their address as client/endpoints.ts writes it, so the app starts from those answers instead of
// asking again (hooks/useRead.ts): the first render is then the server's HTML, which hydration
// needs, and the reader waits for no request. The answers are for the address the page was opened
// at, when it was opened: the first navigation forgets them.
import { createContext } from 'react';
import { ApiError, detailOf } from './api.ts';
import type { Call } from './endpoints.ts';

/** An API answer as the server embedded it: its status and its JSON body. */
export interface EmbeddedAnswer {
  status: number;
  body: unknown;
}

export interface PageData {
  /** When the server rendered the page (ms): relative dates read from it until hydration ends (clock.ts). */
  renderedAt: number;
  /** Each first read's answer, by its address ('/api/posts/12'). */
  reads: Record<string, EmbeddedAnswer>;
}

/** The id of the <script type="application/json"> holding the page's data. */
export const PAGE_DATA_ID = 'page-data';

/** The id of the one holding the site's settings (state/site.ts), in every document the server sends. */
export const SITE_DATA_ID = 'site-data';

/** Where the app finds the page's data: on the server, the request's; in the browser, the page's own. */
export interface PageDataSource {
  /** The data, while the page is still the one it was read for. */
  current(): PageData | undefined;
}

export const PageDataContext = createContext<PageDataSource>({ current: () => undefined });

/** An answer as a page holds it: the value, or why there is none. */
export type Answer<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** The embedded answer to `call`, or undefined when the page carries none for its address. */
export function embeddedAnswer<R>(data: PageData | undefined, call: Call<R>): Answer<R> | undefined {
  const answer = data?.reads[call.url];
  if (!answer) return undefined;
  if (answer.status >= 200 && answer.status < 300) return { ok: true, value: answer.body as R };
  return { ok: false, error: new ApiError(answer.status, detailOf(answer.body)) };
}

/**
 * The data of the page the browser opened, read once from its script element. Forgotten at the
 * first change of address once `hydrated` settles (wouter's navigate dispatches pushState and
 * replaceState events): from then on a page reads for itself, and a page opened again later
 * reads fresh answers. Never before: hydration must find the very data the server rendered with.
 */
export function browserPageData(hydrated: Promise<void>): PageDataSource {
  const element = document.getElementById(PAGE_DATA_ID);
  let data = element?.textContent ? JSON.parse(element.textContent) as PageData : undefined;
  const forget = () => { data = undefined; };
  void hydrated.then(() => {
    for (const event of ['popstate', 'pushState', 'replaceState']) addEventListener(event, forget, { once: true });
  });
  return { current: () => data };
}
