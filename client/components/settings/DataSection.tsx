// Settings, Your data: everything of the account as one JSON file, saved by the browser.
import { useState } from 'react';
import { exportFileName } from '../../../shared/accounts.ts';
import { api } from '../../api.ts';
import { toastApiError } from '../../feedback.ts';
import { SettingsSection } from './SettingsSection.tsx';

const FAILED = 'Error downloading your data';

/** Hands the browser a file to save, made here from what the API sent. */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it starts.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function DataSection() {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const data = await api.account.exportData();
      saveFile(exportFileName(data.profile.username, new Date(data.exported_at)), JSON.stringify(data, null, 2));
    } catch (error) {
      toastApiError(error, FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsSection id="settings-data" title="Your data"
      lede="A copy of everything your account holds: your profile, every article, your comments, the ratings you gave, your follows and your notifications, as one JSON file.">
      <div className="settings__actions">
        <button type="button" className="button" onClick={() => void download()} disabled={busy}>
          {busy ? 'Preparing your data…' : 'Download my data'}
        </button>
      </div>
    </SettingsSection>
  );
}
