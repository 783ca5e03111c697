// Settings, Email notifications (DESIGN.md, Mail): which mail the account gets, chosen box by box
// and saved at once. Only with mail on: without it there is no mail to choose.
import { useEffect, useState } from 'react';
import { api } from '../../api.ts';
import { system } from '../../endpoints.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { useRead } from '../../hooks/useRead.ts';
import type { EmailPreferences } from '../../types.ts';
import { SettingsSection } from './SettingsSection.tsx';

const FAILED = 'Error saving email preferences';
type Switch = 'comments' | 'followers' | 'mentions';

const SWITCHES: Array<[Switch, string]> = [
  ['comments', 'Comments on my articles'],
  ['followers', 'New followers'],
  ['mentions', 'Mentions of me'],
];

export function EmailNoticesSection() {
  const mailOn = useRead(system.config()).value?.mail === true;
  const [preferences, setPreferences] = useState<EmailPreferences>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!mailOn) return;
    api.account.emailPreferences().then(setPreferences, (error) => toastApiError(error, 'Error loading email preferences'));
  }, [mailOn]);

  if (!mailOn) return null;

  // The box shows the choice at once; the server's answer confirms it, or a failure puts it back.
  async function save(change: Partial<EmailPreferences>) {
    const before = preferences;
    setPreferences((current) => (current ? { ...current, ...change } : current));
    setBusy(true);
    try {
      setPreferences(await api.account.setEmailPreferences(change));
      toastSuccess('Email preferences saved', FAILED);
    } catch (error) {
      setPreferences(before);
      toastApiError(error, FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsSection id="settings-email-notices" title="Email notifications"
      lede="What we mail you about, at most one mail a quarter of an hour. Only to a verified address.">
      {preferences ? (
        <fieldset className="settings__choices" disabled={busy}>
          <legend className="visually-hidden">Mail me about</legend>
          {SWITCHES.map(([field, label]) => (
            <label key={field} className="settings__choice">
              <input type="checkbox" checked={preferences[field]} onChange={(e) => void save({ [field]: e.target.checked })} />
              {label}
            </label>
          ))}
          <label className="settings__choice">
            <input type="checkbox" checked={preferences.digest === 'weekly'}
              onChange={(e) => void save({ digest: e.target.checked ? 'weekly' : 'off' })} />
            A weekly digest, on Mondays: the week's top five and the new articles of authors I follow
          </label>
        </fieldset>
      ) : null}
    </SettingsSection>
  );
}
