// Settings, Delete account: with the password, and once more in a dialog. Everything of the
// account goes; afterwards the reader is signed out, on the front page.
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { PASSWORD_REQUIRED_MESSAGE } from '../../../shared/accounts.ts';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { forgetSession } from '../../state/session.ts';
import { InputField } from '../Field.tsx';
import { ConfirmDialog } from '../Modal.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { serverFieldError } from './serverFieldError.ts';

const FAILED = 'Error deleting account';

export function DeleteAccountSection() {
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  function ask(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(PASSWORD_REQUIRED_MESSAGE);
      document.getElementById('delete-password')?.focus();
      return;
    }
    setAsking(true);
  }

  async function remove() {
    setBusy(true);
    try {
      const done = await api.account.remove({ password });
      // Home first, then signed out: this signed-in page would send us to /login.
      navigate('/', { replace: true });
      forgetSession();
      toastSuccess(done.message, FAILED);
    } catch (failure) {
      setError(serverFieldError(failure, 403));
      toastApiError(failure, FAILED);
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <SettingsSection id="settings-delete" title="Delete account" danger
      lede="Your account goes for good, with your articles and their images, your comments, your ratings, your follows and your notifications. The ratings, comments and follows you gave are taken off everyone's counts. This cannot be undone.">
      <form className="form" onSubmit={ask} noValidate aria-label="Delete account">
        <InputField id="delete-password" label="Password" type="password" autoComplete="current-password"
          value={password} error={error}
          onChange={(event) => { setPassword(event.target.value); setError(undefined); }} />
        <div className="settings__actions">
          <button type="submit" className="button button--danger">Delete my account</button>
        </div>
      </form>
      {asking ? (
        <ConfirmDialog title="Delete your account?" confirmLabel="Delete my account" busy={busy}
          message="Everything of your account will be deleted for good. This cannot be undone."
          onConfirm={() => void remove()} onCancel={() => setAsking(false)} />
      ) : null}
    </SettingsSection>
  );
}
