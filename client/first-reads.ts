// The first API reads of the page being opened, started while the app's script is still on its
// way. index.html runs this small entry before main.tsx; without it a reader waits for the script
// to arrive and run, and only then for the page's data. api.ts hands each answer to the first call
// for the same path made on this same page. Only for visitors who are not signed in (these reads
// carry no token) and only for public pages whose first reads follow from the address alone.
// The addresses come from endpoints.ts, the calls the pages make; scripts/build.ts bundles this
// entry on its own so that it imports nothing at run time.
// test/e2e/first-visit.test.ts checks that every read started here is the one the page makes.
import { discovery, posts } from './endpoints.ts';

export interface FirstReads {
  /** The page (path and query) the reads were started for. */
  page: string;
  reads: Map<string, Promise<Response>>;
}

declare global {
  interface Window {
    beatnikFirstReads?: FirstReads;
  }
}

/** api.ts's TOKEN_KEY, repeated: importing api.ts would make this entry wait for the app's code
 * (test/unit/client-api.test.ts checks the two agree). */
export const TOKEN_KEY = 'beatnik.token';

/** The API addresses a public page reads first for a visitor: its first calls, with the same
 * parameters. */
export function firstReadsOf(pathname: string, search: string): string[] {
  const article = /^\/post\/(\d+)$/.exec(pathname);
  const calls = pathname === '/' ? [discovery.frontpage(), posts.list({ limit: 10 }), discovery.hashtags(), discovery.ranks()]
    : pathname === '/ranks' && search === '' ? [discovery.hashtags({ limit: 6 }), discovery.ranks()]
    : pathname === '/authors' && search === '' ? [discovery.authors({ skip: 0, limit: 50, sort_by: 'mojo_desc' })]
    // Not its comments: the page asks for them only once the article is found.
    : article ? [posts.one(article[1]!), discovery.ranks({ limit: 4 })]
    : [];
  return calls.map((call) => call.url);
}

function signedIn(): boolean {
  try {
    return localStorage.getItem(TOKEN_KEY) !== null;
  } catch {
    return false; // storage disabled: the app treats the reader as signed out too
  }
}

if (typeof window !== 'undefined' && !signedIn()) {
  const paths = firstReadsOf(location.pathname, location.search);
  window.beatnikFirstReads = {
    page: location.pathname + location.search,
    reads: new Map(paths.map((path) => [path, fetch(path, { headers: { Accept: 'application/json' } })])),
  };
}
