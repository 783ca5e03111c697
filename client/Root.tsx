// The whole app as both the browser (main.tsx) and the server (ssr.tsx) render it: the page's data
// and its address around App. The two must build the very same tree for hydration to adopt the
// server's HTML, so both come through here.
import { StrictMode, useEffect } from 'react';
import { Router } from 'wouter';
import { App } from './App.tsx';
import { PageDataContext, type PageDataSource } from './page-data.ts';
import { SiteContext } from './state/site.ts';
import type { SiteInfo } from '../server/site/site.view.ts';

export function Root({ data, site, path, search, onMounted }: {
  data: PageDataSource;
  /** The site's settings, as the server wrote them into the document. */
  site: SiteInfo;
  /** The address rendered: the server's request, or the page the browser opened. wouter reads it
   * while rendering on the server and while hydrating, then follows the browser's location. */
  path: string;
  search: string;
  /** Called once the first render is on the page (hydrated, in the browser). */
  onMounted?: () => void;
}) {
  return (
    <StrictMode>
      <SiteContext.Provider value={site}>
        <PageDataContext.Provider value={data}>
          <Router ssrPath={path} ssrSearch={search}>
            <Mounted onMounted={onMounted} />
            <App />
          </Router>
        </PageDataContext.Provider>
      </SiteContext.Provider>
    </StrictMode>
  );
}

function Mounted({ onMounted }: { onMounted?: () => void }) {
  useEffect(() => { onMounted?.(); }, [onMounted]);
  return null;
}
