// The server's way into the app (server/pages/): the same Root the browser hydrates, rendered to
// HTML at the request's address with the answers the server read for it.
import { renderToString } from 'react-dom/server';
import type { PageData } from './page-data.ts';
import { Root } from './Root.tsx';
import type { SiteInfo } from '../server/site/site.view.ts';

export function renderApp(path: string, search: string, data: PageData, site: SiteInfo): string {
  return renderToString(<Root data={{ current: () => data }} site={site} path={path} search={search} />);
}
