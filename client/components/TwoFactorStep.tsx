// The login's second step (DESIGN.md, Running a community): the 6-digit code from the
// authenticator app, or instead one of the recovery codes. A challenge that has expired sends the
// reader back to the password.
import { useState, type FormEvent } from 'react';
import { INVALID_TWO_FACTOR_CODE, TWO_FACTOR_CHALLENGE_EXPIRED, totpDigits } from '../../shared/two-factor.ts';
import { ApiError } from '../api.ts';
import { toastApiError } from '../feedback.ts';
import { completeTwoFactor } from '../state/session.ts';
import { useSite } from '../state/site.ts';
import type { PrivateUser } from '../types.ts';
import { InputField } from './Field.tsx';

const FAILED = 'Error logging in';

export function TwoFactorStep({ challenge, onSignedIn, onExpired }: {
  challenge: string;
  onSignedIn: (user: PrivateUser) => void;
  onExpired: () => void;
}) {
  const { name: siteName } = useSite();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const fieldId = recovery ? 'login-recovery-code' : 'login-code';
  const field = () => document.getElementById(fieldId) as HTMLInputElement | null;

  function switchMode() {
    setRecovery((current) => !current);
    setValue('');
    setError(undefined);
    // The other field is there after this render.
    const other = recovery ? 'login-code' : 'login-recovery-code';
    requestAnimationFrame(() => document.getElementById(other)?.focus());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = value.trim();
    if (!recovery && !totpDigits(typed)) {
      setError('Enter the 6 digits your authenticator app shows.');
      field()?.focus();
      return;
    }
    if (recovery && !typed) {
      setError('Enter one of your recovery codes.');
      field()?.focus();
      return;
    }
    setBusy(true);
    try {
      onSignedIn(await completeTwoFactor(recovery ? { challenge, recovery_code: typed } : { challenge, code: typed }));
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && failure.detail === TWO_FACTOR_CHALLENGE_EXPIRED) {
        toastApiError(failure, FAILED);
        onExpired();
        return;
      }
      if (failure instanceof ApiError && failure.detail === INVALID_TWO_FACTOR_CODE) setError(failure.detail);
      toastApiError(failure, FAILED);
      field()?.select();
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Two-factor code">
      <p className="auth__lead">
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
          : `Open your authenticator app and enter the 6-digit code it shows for ${siteName}.`}
      </p>
      {recovery ? (
        <InputField key="recovery" id="login-recovery-code" label="Recovery code" autoComplete="off" autoCapitalize="none"
          spellCheck={false} value={value} error={error} autoFocus
          onChange={(event) => { setValue(event.target.value); setError(undefined); }} />
      ) : (
        <InputField key="code" id="login-code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code"
          maxLength={7} value={value} error={error} autoFocus
          onChange={(event) => { setValue(event.target.value); setError(undefined); }} />
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Verifying…' : 'Verify'}
      </button>
      <p className="auth__forgot">
        <button type="button" className="link-button" onClick={switchMode}>
          {recovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </button>
      </p>
    </form>
  );
}
