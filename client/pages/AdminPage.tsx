// /admin (SPEC §2, Admin): three counters and the Users, Posts and Banned tabs, and Reports and Settings (DESIGN.md). Signed-in only;
// a non-admin sees Access Denied, and no admin data is requested unless the level is admin.
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { api } from '../api.ts';
import { BannedTab } from '../components/admin/BannedTab.tsx';
import { PostsTab } from '../components/admin/PostsTab.tsx';
import { ReportsTab } from '../components/admin/ReportsTab.tsx';
import { SettingsTab } from '../components/admin/SettingsTab.tsx';
import { UsersTab } from '../components/admin/UsersTab.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { isAdmin } from '../state/session.ts';
import type { AdminStats } from '../types.ts';

const TABS = [
  { id: 'users', label: 'Users' },
  { id: 'posts', label: 'Posts' },
  { id: 'banned', label: 'Banned' },
  { id: 'reports', label: 'Reports' },
  { id: 'settings', label: 'Settings' },
] as const;
type Tab = (typeof TABS)[number]['id'];

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
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ users: null, posts: null, banned: null, reports: null, settings: null });

  const loadStats = useCallback(async () => {
    try {
      setStats(await api.admin.stats());
    } catch {
      toast.error('Error loading admin panel data');
    }
  }, []);

  useEffect(() => { void loadStats(); }, [loadStats]);

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((t) => t.id === tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? TABS.length - 1 : (index + step + TABS.length) % TABS.length;
    const id = TABS[next]!.id;
    setTab(id);
    tabRefs.current[id]?.focus();
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
        {TABS.map((t) => (
          <button key={t.id} ref={(el) => { tabRefs.current[t.id] = el; }} type="button" role="tab"
            id={`admin-tab-${t.id}`} aria-controls={`admin-panel-${t.id}`} aria-selected={tab === t.id}
            tabIndex={tab === t.id ? 0 : -1} className="filter-tabs__button" onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`} className="admin-panel">
        {tab === 'users' ? <UsersTab onChanged={() => void loadStats()} /> : null}
        {tab === 'posts' ? <PostsTab onChanged={() => void loadStats()} /> : null}
        {tab === 'banned' ? <BannedTab onChanged={() => void loadStats()} /> : null}
        {tab === 'reports' ? <ReportsTab onChanged={() => void loadStats()} /> : null}
        {tab === 'settings' ? <SettingsTab /> : null}
      </div>
    </article>
  );
}
