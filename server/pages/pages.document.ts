// The HTML document of a rendered page: the built client's index.html (its styles, scripts and
// preloads, scripts/build.ts) with the page's own head, the app's HTML in #root and the page's
// data beside it, read by the browser before it hydrates (client/page-data.ts).
import { PAGE_DATA_ID, SITE_DATA_ID, type PageData } from '../../client/page-data.ts';
import type { SiteInfo } from '../site/site.view.ts';
import { escapeHtml, scriptJson } from './pages.escape.ts';

/** client/index.html marks the head a page replaces, comments included: the shell's title and description. */
const HEAD_START = '<!-- page head';
const HEAD_END = '<!-- end of page head -->';
/** The empty root and the notice for a browser without JavaScript, which a rendered page needs not. */
const ROOT = /<div id="root"><\/div>\s*<noscript>[\s\S]*?<\/noscript>/;

export interface Shell {
  start: string;
  middle: string;
  end: string;
}

/** index.html cut where a page's parts go; undefined for a page without those places (a test's stand-in). */
export function readShell(indexHtml: string): Shell | undefined {
  const headStart = indexHtml.indexOf(HEAD_START);
  const headEnd = indexHtml.indexOf(HEAD_END);
  const root = ROOT.exec(indexHtml);
  if (headStart < 0 || headEnd < headStart || !root || root.index < headEnd) return undefined;
  return {
    start: indexHtml.slice(0, headStart),
    middle: indexHtml.slice(headEnd + HEAD_END.length, root.index),
    end: indexHtml.slice(root.index + root[0].length),
  };
}

export function pageDocument(shell: Shell, head: string, app: string, data: PageData, site: SiteInfo): string {
  return `${shell.start}${head}${shell.middle}<div id="root">${app}</div>\n    `
    + `<script id="${PAGE_DATA_ID}" type="application/json">${scriptJson(data)}</script>${siteData(site)}${shell.end}`;
}

/** The document of a screen the browser renders (/login, /write…): its head and the site's settings, an empty root. */
export function shellDocument(shell: Shell, head: string, site: SiteInfo): string {
  return `${shell.start}${head}${shell.middle}<div id="root"></div>\n    `
    + `<noscript>${escapeHtml(site.name)} needs JavaScript to run.</noscript>${siteData(site)}${shell.end}`;
}

function siteData(site: SiteInfo): string {
  return `\n    <script id="${SITE_DATA_ID}" type="application/json">${scriptJson(site)}</script>`;
}
