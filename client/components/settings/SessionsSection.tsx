// Settings, Sessions: sign out of every device at once, this one included (a phone left behind,
// a shared computer). The server ends every token; this page then goes to /login.
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { forgetSession } from '../../state/session.ts';
import { ConfirmDialog } from '../Modal.tsx';
import { SettingsSection } from './SettingsSection.tsx';

const FAILED = 'Error signing out everywhere';

export function SessionsSection() {
  const [, navigate] = useLocation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  async function signOutEverywhere() {
    setBusy(true);
    try {
      const done = await api.auth.logoutAll();
      // Away from this signed-in page first, then signed out: /settings would send us to /login anyway.
      navigate('/login', { replace: true });
      forgetSession();
      toastSuccess(done.message, FAILED);
    } catch (error) {
      toastApiError(error, FAILED);
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <SettingsSection id="settings-sessions" title="Sessions"
      lede="Signed in somewhere you no longer use? End every session of your account, this one included.">
      <div className="settings__actions">
        <button type="button" className="button" onClick={() => setAsking(true)}>Sign out everywhere</button>
      </div>
      {asking ? (
        <ConfirmDialog title="Sign out everywhere?" confirmLabel="Sign out everywhere" busy={busy}
          message="Every device signed in to your account will be signed out, this one included."
          onConfirm={() => void signOutEverywhere()} onCancel={() => setAsking(false)} />
      ) : null}
    </SettingsSection>
  );
}
