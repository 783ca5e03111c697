// /about, /rules, /privacy and /terms (DESIGN.md, Running a community): a page the admin wrote in
// the Settings tab, rendered from its Markdown when saved. Rendered on the server; a page not
// written is the not-found page, with a 404.
import { ApiError } from '../api.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { Prose } from '../components/Prose.tsx';
import { LoadingNote, SkeletonLines } from '../components/posts/Skeleton.tsx';
import { TimeAgo } from '../components/TimeAgo.tsx';
import { site } from '../endpoints.ts';
import { useRead } from '../hooks/useRead.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import { SITE_PAGE_TITLES, type SitePage as Page } from '../../shared/site-settings.ts';

/** The page's one read (the server renders it with its answer: server/pages/). */
export const sitePageRead = (page: Page) => site.page(page);

export function SitePage({ page }: { page: Page }) {
  const read = useRead(sitePageRead(page));
  if (read.error instanceof ApiError && read.error.status === 404) return <NotFoundPage />;
  const written = read.value;
  return (
    <article className="page site-page">
      <PageHeading title={SITE_PAGE_TITLES[page]} kicker="From the editors">
        {written ? <p className="site-page__updated">Last updated <TimeAgo iso={written.updated_at} /></p> : null}
      </PageHeading>
      {read.error !== undefined ? (
        <p className="reader-empty">{read.error instanceof ApiError && read.error.detail ? read.error.detail : 'The page could not be loaded. Please try again.'}</p>
      ) : !written ? (
        <div><LoadingNote label="Loading the page…" /><SkeletonLines lines={6} /></div>
      ) : (
        <Prose html={written.content_html} className="site-page__text" />
      )}
    </article>
  );
}
