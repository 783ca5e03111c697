// /moderation's address: which page of the log, `?page=N` (the first page has none). The server
// reads it the same way to render that page (server/pages/pages.table.ts); links between pages
// are plain addresses, so a reader without JavaScript pages through the log too.

export const MODERATION_PAGE_SIZE = 50;
/** Far beyond any log; keeps the offset an ordinary integer. */
const LAST_PAGE = 100_000;

/** The page a query string asks for; 1 for none or anything that is not a page number. */
export function moderationPageOf(search: string): number {
  const text = new URLSearchParams(search).get('page')?.trim() ?? '';
  const page = /^\d{1,6}$/.test(text) ? Number(text) : 1;
  return page >= 1 && page <= LAST_PAGE ? page : 1;
}

export function moderationHref(page: number): string {
  return page > 1 ? `/moderation?page=${page}` : '/moderation';
}
