// /login (SPEC §2, §5): email and password, a link to register and a quote; above the form,
// the ban that signed the reader out or refused their sign-in. With two-factor sign-in on, a
// second step asks for the app's code (or a recovery code) before the session begins.
import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, banOf, returnAddress } from '../api.ts';
import { BanNotice } from '../components/BanNotice.tsx';
import { InputField } from '../components/Field.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { TwoFactorStep } from '../components/TwoFactorStep.tsx';
import { system } from '../endpoints.ts';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { useRead } from '../hooks/useRead.ts';
import { banNotice, login } from '../state/session.ts';
import { useSite } from '../state/site.ts';
import type { PrivateUser } from '../types.ts';
import { firstInvalid, validateLogin, type Errors, type LoginFields } from '../validation.ts';

const ORDER: (keyof LoginFields)[] = ['email', 'password'];

export function LoginPage() {
  useSignals();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [fields, setFields] = useState<LoginFields>({ email: '', password: '' });
  const [errors, setErrors] = useState<Errors<LoginFields>>({});
  const [busy, setBusy] = useState(false);
  /** Set once the password passed and a code must follow. */
  const [challenge, setChallenge] = useState<string>();
  const form = useRef<HTMLFormElement>(null);
  // A link nobody could use is not shown: without mail there is no reset link to send.
  const mailOn = useRead(system.config()).value?.mail === true;
  const { registration } = useSite();

  const set = (field: keyof LoginFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function signedIn(user: PrivateUser) {
    toastSuccess(`Welcome back, ${user.username}!`, 'Error logging in');
    navigate(returnAddress(search), { replace: true });
  }

  /** The challenge expired: the password again, the email kept. */
  function startOver() {
    setChallenge(undefined);
    setFields((current) => ({ ...current, password: '' }));
    requestAnimationFrame(() => document.getElementById('login-password')?.focus());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateLogin(fields);
    setErrors(found);
    const invalid = firstInvalid(ORDER, found);
    if (invalid) {
      form.current?.querySelector<HTMLInputElement>(`#login-${invalid}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const outcome = await login(fields.email.trim(), fields.password);
      if ('challenge' in outcome) {
        setChallenge(outcome.challenge);
        setBusy(false);
      } else {
        signedIn(outcome);
      }
    } catch (error) {
      const ban = error instanceof ApiError ? banOf(error.status, error.detail) : undefined;
      if (ban) banNotice.value = { ...ban, signedOut: false };
      toastApiError(error, 'Error logging in');
      setBusy(false);
    }
  }

  return (
    <div className="auth">
      <section className="auth__form-column">
        <PageHeading title="Login" kicker="Readers' entrance" />
        {banNotice.value ? <BanNotice notice={banNotice.value} /> : null}
        {challenge ? <TwoFactorStep challenge={challenge} onSignedIn={signedIn} onExpired={startOver} /> : (
        <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Login">
          <InputField id="login-email" label="Email" type="email" autoComplete="email" required
            value={fields.email} onChange={set('email')} error={errors.email} />
          <InputField id="login-password" label="Password" type="password" autoComplete="current-password" required
            value={fields.password} onChange={set('password')} error={errors.password} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Logging in…' : 'Log in'}
          </button>
        </form>
        )}
        {mailOn && !challenge ? <p className="auth__forgot"><Link href="/forgot-password">Forgot your password?</Link></p> : null}
        {registration === 'closed' ? null : (
          <p className="auth__switch">
            Don't have an account? <Link href="/register">Register</Link>
          </p>
        )}
      </section>
      <Quote />
    </div>
  );
}

function Quote() {
  return (
    <aside className="auth__quote" aria-label="Quote">
      <blockquote>
        <p>
          “The only people for me are the mad ones, the ones who are mad to live, mad to talk, mad to be
          saved, desirous of everything at the same time, the ones who never yawn or say a commonplace
          thing, but burn, burn, burn…”
        </p>
      </blockquote>
      <p className="auth__quote-source">— Jack Kerouac, <cite>On the Road</cite></p>
    </aside>
  );
}
