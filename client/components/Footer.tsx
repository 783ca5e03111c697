// The footer of SPEC §1: a copyright line, two social icons and 'Privacy Policy | Terms of Service';
// and the public moderation log (DESIGN.md). The icons are marks only: nothing links or loads off the site.
import { Link } from 'wouter';
import { dateFormat } from '../../shared/dates.ts';
import { useClock } from '../clock.ts';
import { ChatIcon, FeedIcon } from './icons.tsx';

export function Footer() {
  const { now, timeZone } = useClock();
  const year = dateFormat('en-US', { year: 'numeric', timeZone }).format(now);
  return (
    <footer className="colophon">
      <div className="colophon__social">
        <ChatIcon label="Beatnik community" width={22} height={22} />
        <FeedIcon label="Beatnik feed" width={22} height={22} />
      </div>
      <p className="colophon__copyright">© {year} Beatnik</p>
      <p className="colophon__legal">Privacy Policy | Terms of Service</p>
      <p className="colophon__log"><Link href="/moderation">Moderation log</Link></p>
    </footer>
  );
}
