// /admin (SPEC §2, Admin): users, posts and bans. Signed-in only; a non-admin sees Access Denied.
// The panel itself is to be built.
import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { PageHeading } from '../components/PageHeading.tsx';
import { isAdmin } from '../state/session.ts';

export function AdminPage() {
  useSignals();
  if (!isAdmin.value) {
    return (
      <article className="page page--notice">
        <PageHeading title="Access Denied" />
        <p><Link href="/">Back to the FrontPage</Link></p>
      </article>
    );
  }
  return (
    <article className="page">
      <PageHeading title="Admin" />
    </article>
  );
}
