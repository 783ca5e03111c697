// /reset-password?token=… (DESIGN.md, Mail): the link a reset mail carries. A new password, typed
// twice by the registration rules; done, the reader goes to /login with the server's answer.
import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../api.ts';
import { system } from '../endpoints.ts';
import { useRead } from '../hooks/useRead.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import { InputField } from '../components/Field.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { forgetSession } from '../state/session.ts';
import { firstInvalid, validateResetPassword, type Errors, type ResetPasswordFields } from '../validation.ts';

const ORDER: (keyof ResetPasswordFields)[] = ['password', 'confirmPassword'];
const IDS: Record<keyof ResetPasswordFields, string> = { password: 'reset-password', confirmPassword: 'reset-confirm' };

export function ResetPasswordPage() {
  const mailOff = useRead(system.config()).value?.mail === false;
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [fields, setFields] = useState<ResetPasswordFields>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors<ResetPasswordFields>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const set = (field: keyof ResetPasswordFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  // Without mail there is nothing to send: the page is not there (DESIGN.md, Mail).
  if (mailOff) return <NotFoundPage />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateResetPassword(fields);
    setErrors(found);
    const invalid = firstInvalid(ORDER, found);
    if (invalid) {
      form.current?.querySelector<HTMLElement>(`#${IDS[invalid]}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const { detail } = await api.auth.resetPassword({ token, password: fields.password, confirm_password: fields.confirmPassword });
      // Every session of the account has ended, this browser's too if it had one.
      forgetSession();
      toastSuccess(detail, 'Error resetting password');
      navigate('/login', { replace: true });
    } catch (error) {
      toastApiError(error, 'Error resetting password');
      setBusy(false);
    }
  }

  return (
    <div className="auth auth--single">
      <section className="auth__form-column">
        <PageHeading title="Choose a new password" kicker="Readers' entrance" />
        <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Choose a new password">
          <InputField id={IDS.password} label="New password" type="password" autoComplete="new-password" required
            value={fields.password} onChange={set('password')} error={errors.password} />
          <InputField id={IDS.confirmPassword} label="Confirm new password" type="password" autoComplete="new-password" required
            value={fields.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving…' : 'Set new password'}
          </button>
        </form>
        <p className="auth__switch">
          Link expired? <Link href="/forgot-password">Ask for a new one</Link>
        </p>
      </section>
    </div>
  );
}
