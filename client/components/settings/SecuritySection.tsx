// Settings, Security: two-factor sign-in (DESIGN.md, Running a community). Off: the password starts
// the set-up, which shows a QR code and the secret for the authenticator app; the app's first code
// turns it on and shows the 10 recovery codes, once. On: the password and a code turn it off.
// This session carries on throughout.
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type FormEvent } from 'react';
import { PASSWORD_REQUIRED_MESSAGE } from '../../../shared/accounts.ts';
import { INVALID_TWO_FACTOR_CODE, totpDigits } from '../../../shared/two-factor.ts';
import type { TotpSetup } from '../../../server/api-types.ts';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { currentUser, updateCurrentUser } from '../../state/session.ts';
import { InputField } from '../Field.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { serverFieldError } from './serverFieldError.ts';

const CODE_PROBLEM = 'Enter the 6 digits your authenticator app shows.';

export function SecuritySection() {
  useSignals();
  const on = currentUser.value?.two_factor_enabled === true;
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  // The admin page's link comes here (ADMIN_2FA=required): a client-side visit does not scroll by itself.
  useEffect(() => {
    if (window.location.hash === '#settings-security') document.getElementById('settings-security')?.scrollIntoView();
  }, []);
  return (
    <SettingsSection id="settings-security" title="Security"
      lede="Two-factor sign-in: after your password, a 6-digit code from an authenticator app on your phone, so that a stolen password alone cannot sign in.">
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />
        : on ? <TurnOff /> : <SetUp onEnabled={setRecoveryCodes} />}
    </SettingsSection>
  );
}

function SetUp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [password, setPassword] = useState('');
  const [setup, setSetup] = useState<TotpSetup>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function start(event: FormEvent) {
    event.preventDefault();
    if (!password) return fail(PASSWORD_REQUIRED_MESSAGE, 'two-factor-password');
    setBusy(true);
    try {
      setSetup(await api.account.twoFactorSetup({ password }));
      setPassword('');
      setError(undefined);
      requestAnimationFrame(() => document.getElementById('two-factor-code')?.focus());
    } catch (failure) {
      setError(serverFieldError(failure, 403));
      toastApiError(failure, 'Error setting up two-factor authentication');
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!totpDigits(code)) return fail(CODE_PROBLEM, 'two-factor-code');
    setBusy(true);
    try {
      const enabled = await api.account.twoFactorOn({ code: code.trim() });
      updateCurrentUser(enabled.user);
      toastSuccess(enabled.detail, 'Error turning on two-factor authentication');
      onEnabled(enabled.recovery_codes);
    } catch (failure) {
      setError(serverFieldError(failure, 400));
      toastApiError(failure, 'Error turning on two-factor authentication');
      setBusy(false);
    }
  }

  function fail(problem: string, field: string) {
    setError(problem);
    document.getElementById(field)?.focus();
  }

  if (!setup) {
    return (
      <form className="form" onSubmit={start} noValidate aria-label="Set up two-factor authentication">
        <p className="settings__status">Two-factor sign-in is <strong>off</strong>.</p>
        <InputField id="two-factor-password" label="Password" type="password" autoComplete="current-password"
          value={password} error={error} onChange={(event) => { setPassword(event.target.value); setError(undefined); }} />
        <div className="settings__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Setting up…' : 'Set up two-factor authentication'}
          </button>
        </div>
      </form>
    );
  }
  return (
    <form className="form" onSubmit={confirm} noValidate aria-label="Turn on two-factor authentication">
      <p className="settings__status">Scan this QR code with your authenticator app, or type the key below into it.</p>
      <div className="two-factor__setup">
        {/* An SVG in an <img> runs no script: the server's drawing is shown, never inserted as markup. */}
        <img className="two-factor__qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
          alt="QR code for your authenticator app" width={176} height={176} />
        <div className="two-factor__key">
          <p className="field__label" id="two-factor-secret-label">Setup key</p>
          <code className="two-factor__secret" aria-labelledby="two-factor-secret-label">{grouped(setup.secret)}</code>
        </div>
      </div>
      <InputField id="two-factor-code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7}
        value={code} error={error} onChange={(event) => { setCode(event.target.value); setError(undefined); }} />
      <div className="settings__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Turning on…' : 'Turn on'}
        </button>
        <button type="button" className="button button--quiet" disabled={busy} onClick={() => { setSetup(undefined); setCode(''); setError(undefined); }}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** 'ABCD EFGH …': easier to type off the screen. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="form">
      <p className="settings__status">Two-factor sign-in is <strong>on</strong>.</p>
      <p>
        Save these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown
        only now.
      </p>
      <ol className="two-factor__codes" aria-label="Recovery codes">
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ol>
      <div className="settings__actions">
        <button type="button" className="button button--primary" onClick={onDone}>I have saved them</button>
      </div>
    </div>
  );
}

function TurnOff() {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const FAILED = 'Error turning off two-factor authentication';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      password: password ? undefined : PASSWORD_REQUIRED_MESSAGE,
      code: recovery ? (code.trim() ? undefined : 'Enter one of your recovery codes.') : (totpDigits(code) ? undefined : CODE_PROBLEM),
    };
    setErrors(found);
    if (found.password || found.code) {
      document.getElementById(found.password ? 'two-factor-off-password' : 'two-factor-off-code')?.focus();
      return;
    }
    setBusy(true);
    try {
      const done = await api.account.twoFactorOff(recovery ? { password, recovery_code: code.trim() } : { password, code: code.trim() });
      updateCurrentUser(done.user);
      toastSuccess(done.detail, FAILED);
    } catch (failure) {
      const detail = serverFieldError(failure, 403);
      setErrors(detail === INVALID_TWO_FACTOR_CODE ? { code: detail } : { password: detail });
      toastApiError(failure, FAILED);
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Turn off two-factor authentication">
      <p className="settings__status">Two-factor sign-in is <strong>on</strong>.</p>
      <div className="form__pair">
        <InputField id="two-factor-off-password" label="Password" type="password" autoComplete="current-password"
          value={password} error={errors.password}
          onChange={(event) => { setPassword(event.target.value); setErrors((e) => ({ ...e, password: undefined })); }} />
        <InputField id="two-factor-off-code" label={recovery ? 'Recovery code' : 'Code from the app'}
          inputMode={recovery ? 'text' : 'numeric'} autoComplete="off" value={code} error={errors.code}
          onChange={(event) => { setCode(event.target.value); setErrors((e) => ({ ...e, code: undefined })); }} />
      </div>
      <p className="settings__hint">
        <button type="button" className="link-button" onClick={() => { setRecovery(!recovery); setCode(''); setErrors({}); }}>
          {recovery ? 'Use the app\'s code instead' : 'Use a recovery code instead'}
        </button>
      </p>
      <div className="settings__actions">
        <button type="submit" className="button button--danger" disabled={busy}>
          {busy ? 'Turning off…' : 'Turn off two-factor authentication'}
        </button>
      </div>
    </form>
  );
}
