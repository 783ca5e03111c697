// A relative date ('3 hours ago') told by the page's clock (clock.ts), so the server and the
// hydrating browser write the same words; the exact moment stays in the element's datetime.
import { useClock } from '../clock.ts';
import { relativeTime } from '../format.ts';

export function TimeAgo({ iso, className }: { iso: string; className?: string }) {
  const { now } = useClock();
  return <time className={className} dateTime={iso}>{relativeTime(iso, now)}</time>;
}
