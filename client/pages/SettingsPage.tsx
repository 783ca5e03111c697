// /settings (DESIGN.md, Accounts: settings), signed in: password, two-factor sign-in, email,
// sessions, a copy of one's data, what one muted and deleting the account, one section each.
import { PageHeading } from '../components/PageHeading.tsx';
import { DataSection } from '../components/settings/DataSection.tsx';
import { DeleteAccountSection } from '../components/settings/DeleteAccountSection.tsx';
import { MutedSection } from '../components/settings/MutedSection.tsx';
import { EmailSection } from '../components/settings/EmailSection.tsx';
import { EmailNoticesSection } from '../components/settings/EmailNoticesSection.tsx';
import { PasswordSection } from '../components/settings/PasswordSection.tsx';
import { SecuritySection } from '../components/settings/SecuritySection.tsx';
import { SessionsSection } from '../components/settings/SessionsSection.tsx';

export function SettingsPage() {
  return (
    <div className="settings">
      <PageHeading title="Settings" kicker="Your account" />
      <PasswordSection />
      <SecuritySection />
      <EmailSection />
      <EmailNoticesSection />
      <SessionsSection />
      <MutedSection />
      <DataSection />
      <DeleteAccountSection />
    </div>
  );
}
