// The footer of SPEC §1: a copyright line, two social icons and 'Privacy Policy | Terms of Service',
// each a link once the admin has written that page, with 'About' and 'Rules' before them when
// written (DESIGN.md, Running a community); the contact address when one is set; and the public
// moderation log. The icons are marks only: nothing links or loads off the site.
import { Fragment } from 'react';
import { Link } from 'wouter';
import { dateFormat } from '../../shared/dates.ts';
import { SITE_PAGE_TITLES, type SitePage } from '../../shared/site-settings.ts';
import { useClock } from '../clock.ts';
import { ROUTES } from '../routes.ts';
import { useSite } from '../state/site.ts';
import { ChatIcon, FeedIcon } from './icons.tsx';

export function Footer() {
  const { now, timeZone } = useClock();
  const site = useSite();
  const year = dateFormat('en-US', { year: 'numeric', timeZone }).format(now);
  // Privacy and Terms always stand (SPEC §1); About and Rules only once written.
  const pages: SitePage[] = [
    ...(['about', 'rules'] as const).filter((page) => site.pages[page]),
    'privacy', 'terms',
  ];
  return (
    <footer className="colophon">
      <div className="colophon__social">
        <ChatIcon label={`${site.name} community`} width={22} height={22} />
        <FeedIcon label={`${site.name} feed`} width={22} height={22} />
      </div>
      <p className="colophon__copyright">© {year} {site.name}</p>
      <p className="colophon__legal">
        {pages.map((page, i) => (
          <Fragment key={page}>
            {i > 0 ? ' | ' : null}
            {site.pages[page] ? <Link href={ROUTES[page]}>{SITE_PAGE_TITLES[page]}</Link> : SITE_PAGE_TITLES[page]}
          </Fragment>
        ))}
      </p>
      {site.contact_email ? (
        <p className="colophon__contact">Contact: <a href={`mailto:${site.contact_email}`}>{site.contact_email}</a></p>
      ) : null}
      <p className="colophon__log"><Link href="/moderation">Moderation log</Link></p>
    </footer>
  );
}
