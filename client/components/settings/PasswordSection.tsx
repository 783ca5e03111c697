// Settings, Password: current, new and confirmation. Every other session ends; this one carries on
// with the token the server gives back.
import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { replaceToken } from '../../state/session.ts';
import { firstInvalid, validatePasswordChange, type Errors, type PasswordChangeFields } from '../../validation.ts';
import { InputField } from '../Field.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { serverFieldError } from './serverFieldError.ts';

const ORDER: (keyof PasswordChangeFields)[] = ['current', 'next', 'confirm'];
const EMPTY: PasswordChangeFields = { current: '', next: '', confirm: '' };
const FAILED = 'Error changing password';

export function PasswordSection() {
  const [fields, setFields] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors<PasswordChangeFields>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const set = (field: keyof PasswordChangeFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validatePasswordChange(fields);
    setErrors(found);
    const invalid = firstInvalid(ORDER, found);
    if (invalid) {
      form.current?.querySelector<HTMLInputElement>(`#password-${invalid}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const changed = await api.account.changePassword({
        current_password: fields.current, new_password: fields.next, confirm_password: fields.confirm,
      });
      replaceToken(changed.access_token);
      setFields(EMPTY);
      toastSuccess(changed.message, FAILED);
    } catch (error) {
      const current = serverFieldError(error, 403);
      if (current) setErrors({ current });
      toastApiError(error, FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsSection id="settings-password" title="Password"
      lede="Choose a new password. Every other device signed in to your account is signed out; this one stays.">
      <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Change password">
        <InputField id="password-current" label="Current password" type="password" autoComplete="current-password"
          value={fields.current} onChange={set('current')} error={errors.current} />
        <div className="form__pair">
          <InputField id="password-next" label="New password" type="password" autoComplete="new-password"
            value={fields.next} onChange={set('next')} error={errors.next} />
          <InputField id="password-confirm" label="Confirm new password" type="password" autoComplete="new-password"
            value={fields.confirm} onChange={set('confirm')} error={errors.confirm} />
        </div>
        <div className="settings__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Changing password…' : 'Change password'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
