// The moment and the time zone the pages tell dates in ('3 hours ago', today's date, 'Joined
// November 2026'). The server renders with the moment it rendered at, in UTC; the browser
// hydrates with the very same ones, or its text would differ from the server's HTML, then
// re-renders at once with the reader's own clock and zone (useSyncExternalStore answers the
// server's snapshot while hydrating and the browser's afterwards). A page rendered in the browser
// alone starts with the reader's.
import { useContext, useSyncExternalStore } from 'react';
import { PageDataContext } from './page-data.ts';

export interface Clock {
  /** ms since the epoch. */
  now: number;
  /** An IANA zone, or undefined for the runtime's own. */
  timeZone: string | undefined;
}

const nothingToWatch = () => () => {};

export function useClock(): Clock {
  const renderedAt = useContext(PageDataContext).current()?.renderedAt;
  const rendering = useSyncExternalStore(nothingToWatch, () => false, () => true);
  return rendering && renderedAt !== undefined ? { now: renderedAt, timeZone: 'UTC' } : { now: Date.now(), timeZone: undefined };
}
