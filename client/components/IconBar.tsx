// Narrow screens (≤ 720px): a bottom icon bar instead of the section links and reader tools.
// SPEC §2: it carries the labels Notif and Profile, and no Register link. Search is an icon that
// opens /search, whose own field takes the words.
import { useSignals } from '@preact/signals-react/runtime';
import { currentUser, isAdmin } from '../state/session.ts';
import { unreadCount } from '../state/notifications.ts';
import { AdminIcon, BellIcon, FrontPageIcon, LoginIcon, PenIcon, ProfileIcon, PulseIcon, SearchIcon, VoicesIcon } from './icons.tsx';
import { NavItem } from './NavItem.tsx';

export function IconBar() {
  useSignals();
  const user = currentUser.value;
  const unread = unreadCount.value;
  return (
    <nav className="iconbar" aria-label="Sections and account">
      <NavItem href="/" className="iconbar__item"><FrontPageIcon /><span>Front</span></NavItem>
      <NavItem href="/ranks" className="iconbar__item"><PulseIcon /><span>Pulse</span></NavItem>
      <NavItem href="/authors" className="iconbar__item"><VoicesIcon /><span>Voices</span></NavItem>
      <NavItem href="/search" className="iconbar__item"><SearchIcon /><span>Search</span></NavItem>
      {user ? <NavItem href="/write" className="iconbar__item"><PenIcon /><span>Write</span></NavItem> : null}
      {isAdmin.value ? <NavItem href="/admin" className="iconbar__item"><AdminIcon /><span>Admin</span></NavItem> : null}
      {user ? (
        <NavItem href="/notifications" className="iconbar__item"
          label={unread > 0 ? `Notif, ${unread} unread` : undefined}>
          <span className="iconbar__icon">
            <BellIcon />
            {unread > 0 ? <span className="badge" aria-hidden="true">{unread}</span> : null}
          </span>
          <span>Notif</span>
        </NavItem>
      ) : null}
      {user
        ? <NavItem href="/profile" className="iconbar__item"><ProfileIcon /><span>Profile</span></NavItem>
        : <NavItem href="/login" className="iconbar__item"><LoginIcon /><span>Login</span></NavItem>}
    </nav>
  );
}
