// /admin (SPEC §2, Admin): three counters and the Users, Posts and Banned tabs, and Reports, Pending,
// Invites, Settings and, while federation is on, Fediverse (DESIGN.md). Signed-in only; a non-admin sees Access Denied, and no admin
// data is requested unless the level is admin. With ADMIN_2FA=required, an admin without
// two-factor sign-in is sent to Settings → Security instead.
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { ADMIN_NEEDS_TWO_FACTOR } from '../../shared/two-factor.ts';
import { ApiError, api } from '../api.ts';
import { BannedTab } from '../components/admin/BannedTab.tsx';
import { FediverseTab } from '../components/admin/FediverseTab.tsx';
import { InvitesTab } from '../components/admin/InvitesTab.tsx';
import { PendingTab } from '../components/admin/PendingTab.tsx';
import { PostsTab } from '../components/admin/PostsTab.tsx';
import { ReportsTab } from '../components/admin/ReportsTab.tsx';
import { SettingsTab } from '../components/admin/SettingsTab.tsx';
import { UsersTab } from '../components/admin/UsersTab.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { isAdmin } from '../state/session.ts';
import { useSite } from '../state/site.ts';
import type { AdminStats } from '../types.ts';

const TABS = [
  { id: 'users', label: 'Users' },
  { id: 'posts', label: 'Posts' },
  { id: 'banned', label: 'Banned' },
  { id: 'reports', label: 'Reports' },
  { id: 'pending', label: 'Pending' },
  { id: 'invites', label: 'Invites' },
  { id: 'settings', label: 'Settings' },
  { id: 'fediverse', label: 'Fediverse' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** Whether the site federates (GET /api/site's `federation`; read as optional, as documents written before it lack it). */
function useFederation(): boolean {
  const site = useSite() as { federation?: { enabled?: boolean } };
  return site.federation?.enabled === true;
}

export function AdminPage() {
  useSignals();
  if (!isAdmin.value) {
    return (
      <article className="page page--notice">
        <PageHeading title="Access Denied" />
        <p>This page is for the site's administrators.</p>
        <p><Link href="/">Back to the FrontPage</Link></p>
      </article>
    );
  }
  return <AdminPanel />;
}

function AdminPanel() {
  const [stats, setStats] = useState<AdminStats | null>(null);
  const [tab, setTab] = useState<Tab>('users');
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({
    users: null, posts: null, banned: null, reports: null, pending: null, invites: null, settings: null, fediverse: null,
  });
  const federation = useFederation();
  const tabs = TABS.filter((t) => t.id !== 'fediverse' || federation);

  /** Until the first counters answer, the tabs wait: a refusal is told once, not by every tab. */
  const [checked, setChecked] = useState(false);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);

  const loadStats = useCallback(async () => {
    try {
      setStats(await api.admin.stats());
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && error.detail === ADMIN_NEEDS_TWO_FACTOR) setNeedsTwoFactor(true);
      else toast.error('Error loading admin panel data');
    } finally {
      setChecked(true);
    }
  }, []);

  useEffect(() => { void loadStats(); }, [loadStats]);

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((t) => t.id === tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : (index + step + tabs.length) % tabs.length;
    const id = tabs[next]!.id;
    setTab(id);
    tabRefs.current[id]?.focus();
  }

  if (needsTwoFactor) {
    return (
      <article className="page page--notice">
        <PageHeading title="Admin" kicker="The editor's desk" />
        <p>{ADMIN_NEEDS_TWO_FACTOR}</p>
        <p><Link href="/settings#settings-security">Go to Settings → Security</Link></p>
      </article>
    );
  }

  const counters: Array<[string, number | undefined]> = [
    ['Total Users', stats?.total_users], ['Active Posts', stats?.active_posts], ['Banned Users', stats?.banned_users],
  ];
  return (
    <article className="page admin-page">
      <PageHeading title="Admin" kicker="The editor's desk">
        <p className="admin-page__lede">Moderate the community: levels, bans, notices, articles and what readers report.</p>
      </PageHeading>
      <dl className="admin-counters">
        {counters.map(([label, value]) => (
          <div key={label} className="admin-counter">
            <dt className="admin-counter__label">{label}</dt>
            <dd className="admin-counter__value">{value ?? '—'}</dd>
          </div>
        ))}
      </dl>
      <div className="filter-tabs" role="tablist" aria-label="Admin sections" onKeyDown={onTabKey}>
        {tabs.map((t) => (
          <button key={t.id} ref={(el) => { tabRefs.current[t.id] = el; }} type="button" role="tab"
            id={`admin-tab-${t.id}`} aria-controls={`admin-panel-${t.id}`} aria-selected={tab === t.id}
            tabIndex={tab === t.id ? 0 : -1} className="filter-tabs__button" onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`} className="admin-panel">
        {checked && tab === 'users' ? <UsersTab onChanged={() => void loadStats()} /> : null}
        {checked && tab === 'posts' ? <PostsTab onChanged={() => void loadStats()} /> : null}
        {checked && tab === 'banned' ? <BannedTab onChanged={() => void loadStats()} /> : null}
        {checked && tab === 'reports' ? <ReportsTab onChanged={() => void loadStats()} /> : null}
        {checked && tab === 'pending' ? <PendingTab onChanged={() => void loadStats()} /> : null}
        {checked && tab === 'invites' ? <InvitesTab /> : null}
        {checked && tab === 'settings' ? <SettingsTab /> : null}
        {checked && tab === 'fediverse' && federation ? <FediverseTab /> : null}
      </div>
    </article>
  );
}
