// The search page's address, /search?q=…: what the reader asked for lives in the URL, so a search
// can be shared, reloaded, and walked back and forth through the browser's history.

/** The query in a location's search string ('?q=caf%C3%A9' or 'q=café'), as typed; '' when none. */
export function queryOf(search: string): string {
  return new URLSearchParams(search).get('q') ?? '';
}

/** '/search?q=caf%C3%A9', or '/search' for an empty query (the page then asks for words). */
export function searchHref(query: string): string {
  const q = query.trim();
  return q ? `/search?${new URLSearchParams({ q })}` : '/search';
}
