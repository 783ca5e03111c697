// The one place the app puts HTML on a page: an article's or a comment's `content_html`, which the
// server rendered from Markdown and sanitized when it was written (server/markdown/). Nothing else
// may use dangerouslySetInnerHTML, and this takes only a stored rendering: test/unit/prose-only.test.ts
// fails if either changes. A click on a link to a page of the site opens it inside the app.
import type { MouseEvent } from 'react';
import { useLocation } from 'wouter';

/** `html`: a `content_html` as the API returned it (an article's, a comment's, POST /api/preview's), nothing else. */
export function Prose({ html, className }: { html: string; className: string }) {
  const [, navigate] = useLocation();
  function followSiteLink(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!href || !href.startsWith('/') || href.startsWith('//')) return;
    event.preventDefault();
    navigate(href);
  }
  return <div className={`prose ${className}`} onClick={followSiteLink} dangerouslySetInnerHTML={{ __html: html }} />;
}
