// The masthead (SPEC §1, §2): ABOUT and CONTACT (plain text, not links), the search field, the
// reader's tools, the blackletter name, today's date and the section navigation. Narrow screens
// use IconBar (search there is an icon opening /search).
// On the front page the paper's name is the page's one h1; every other page has its own.
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { dateFormat } from '../../shared/dates.ts';
import { useClock } from '../clock.ts';
import { currentUser, isAdmin, logout } from '../state/session.ts';
import { useSite } from '../state/site.ts';
import { badgeText, pollUnreadCount, unreadCount } from '../state/notifications.ts';
import { Avatar } from './Avatar.tsx';
import { BellIcon } from './icons.tsx';
import { NavItem } from './NavItem.tsx';
import { SearchForm } from './search/SearchForm.tsx';

/** 'Monday, November 23, 2026' in the given time zone (the runtime's own when none is given). */
export function todayLine(date = new Date(), timeZone?: string): string {
  return dateFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone }).format(date);
}

/** The same day as the datetime attribute wants it: 2026-11-23. */
function isoDay(date: Date, timeZone?: string): string {
  return dateFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(date);
}

export function Header() {
  useSignals();
  const user = currentUser.value;
  const userId = user?.id;
  useEffect(() => (userId === undefined ? undefined : pollUnreadCount()), [userId]);
  const [location] = useLocation();
  const Name = location === '/' ? 'h1' : 'p';
  const clock = useClock();
  const now = new Date(clock.now);
  const site = useSite();

  return (
    <header className="masthead">
      <div className="masthead__ears">
        <p className="masthead__ear">
          <span>ABOUT</span>
          <span aria-hidden="true" className="masthead__dot">·</span>
          <span>CONTACT</span>
        </p>
        <SearchForm id="masthead-search" className="masthead__search" />
        <ReaderTools />
      </div>
      <Name className="masthead__name">
        <Link href="/" className="masthead__name-link">{site.name}</Link>
      </Name>
      {site.tagline ? <p className="masthead__tagline">{site.tagline}</p> : null}
      <p className="masthead__dateline">
        <time dateTime={isoDay(now, clock.timeZone)}>{todayLine(now, clock.timeZone)}</time>
      </p>
      <nav className="sections" aria-label="Sections">
        <NavItem href="/">FrontPage</NavItem>
        <NavItem href="/ranks">The Pulse</NavItem>
        <NavItem href="/authors">Voices</NavItem>
        {user ? <NavItem href="/write">Write</NavItem> : null}
        {isAdmin.value ? <NavItem href="/admin">Admin</NavItem> : null}
      </nav>
    </header>
  );
}

function ReaderTools() {
  useSignals();
  const user = currentUser.value;
  const { registration } = useSite();
  if (!user) {
    return (
      <nav className="reader-tools" aria-label="Account">
        <NavItem href="/login" className="reader-tools__link reader-tools__login">Login</NavItem>
        {registration === 'closed' ? null : <NavItem href="/register" className="reader-tools__link reader-tools__register">Register</NavItem>}
      </nav>
    );
  }
  const unread = unreadCount.value;
  const mojo = Math.round(user.mojo);
  return (
    <nav className="reader-tools" aria-label="Account">
      <NavItem href="/notifications" className="reader-tools__bell"
        label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}>
        <BellIcon />
        {unread > 0 ? <span className="badge" aria-hidden="true">{badgeText(unread)}</span> : null}
      </NavItem>
      {/* Named by its own words, so that what a reader sees is what a voice command says (WCAG 2.5.3). */}
      <NavItem href="/profile" className="reader-tools__profile">
        <Avatar username={user.username} avatar={user.avatar} size={28} />
        <span className="visually-hidden">Profile: </span>
        <span className="reader-tools__username">{user.username}</span>
        <span className="reader-tools__mojo" aria-hidden="true">★ {mojo}</span>
        <span className="visually-hidden">, mojo {mojo}</span>
      </NavItem>
      <NavItem href="/settings" className="reader-tools__link reader-tools__settings">Settings</NavItem>
      <button type="button" className="reader-tools__logout" onClick={() => void logout()}>Logout</button>
    </nav>
  );
}
