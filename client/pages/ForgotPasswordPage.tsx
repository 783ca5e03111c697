// /forgot-password (DESIGN.md, Mail): an address, and the server's one answer, which says the same
// whether an account has it or not. Reached from 'Forgot your password?' on /login when mail is on.
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api } from '../api.ts';
import { system } from '../endpoints.ts';
import { useRead } from '../hooks/useRead.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import { InputField } from '../components/Field.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { toastApiError } from '../feedback.ts';
import { forgotPasswordProblem } from '../validation.ts';

export function ForgotPasswordPage() {
  const mailOff = useRead(system.config()).value?.mail === false;
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<string>();
  const form = useRef<HTMLFormElement>(null);

  // Without mail there is nothing to send: the page is not there (DESIGN.md, Mail).
  if (mailOff) return <NotFoundPage />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = forgotPasswordProblem(email);
    setError(problem);
    if (problem) {
      form.current?.querySelector<HTMLInputElement>('#forgot-email')?.focus();
      return;
    }
    setBusy(true);
    try {
      setAnswer((await api.auth.forgotPassword({ email: email.trim() })).detail);
    } catch (err) {
      toastApiError(err, 'Error sending the reset link');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth auth--single">
      <section className="auth__form-column">
        <PageHeading title="Forgot your password?" kicker="Readers' entrance" />
        {answer ? (
          <p className="auth__answer" role="status">{answer}</p>
        ) : (
          <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Forgot your password">
            <p className="auth__lead">Give the email address of your account, and we will mail you a link to choose a new password.</p>
            <InputField id="forgot-email" label="Email" type="email" autoComplete="email" required
              value={email} onChange={(e) => { setEmail(e.target.value); setError(undefined); }} error={error} />
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send reset link'}
            </button>
          </form>
        )}
        <p className="auth__switch">
          Remembered it? <Link href="/login">Log in</Link>
        </p>
      </section>
    </div>
  );
}
