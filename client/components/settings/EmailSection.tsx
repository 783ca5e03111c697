// Settings, Email: the address that signs in, changed with the password.
import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { currentUser, updateCurrentUser } from '../../state/session.ts';
import { firstInvalid, validateEmailChange, type EmailChangeFields, type Errors } from '../../validation.ts';
import { InputField } from '../Field.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { serverFieldError } from './serverFieldError.ts';

const ORDER: (keyof EmailChangeFields)[] = ['email', 'password'];
const EMPTY: EmailChangeFields = { email: '', password: '' };
const FAILED = 'Error changing email';

export function EmailSection() {
  useSignals();
  const email = currentUser.value?.email ?? '';
  const [fields, setFields] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors<EmailChangeFields>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const set = (field: keyof EmailChangeFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateEmailChange(fields, email);
    setErrors(found);
    const invalid = firstInvalid(ORDER, found);
    if (invalid) {
      form.current?.querySelector<HTMLInputElement>(`#email-${invalid}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const changed = await api.account.changeEmail({ email: fields.email.trim(), password: fields.password });
      updateCurrentUser(changed.user);
      setFields(EMPTY);
      toastSuccess(changed.message, FAILED);
    } catch (error) {
      const password = serverFieldError(error, 403);
      const taken = serverFieldError(error, 409);
      if (password || taken) setErrors(password ? { password } : { email: taken });
      toastApiError(error, FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsSection id="settings-email" title="Email"
      lede={<>You sign in with <strong className="settings__email">{email}</strong>. A new address is your login from then on.</>}>
      <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Change email">
        <InputField id="email-email" label="New email" type="email" autoComplete="email"
          value={fields.email} onChange={set('email')} error={errors.email} />
        <InputField id="email-password" label="Password" type="password" autoComplete="current-password"
          value={fields.password} onChange={set('password')} error={errors.password} />
        <div className="settings__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Changing email…' : 'Change email'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
