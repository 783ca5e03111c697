// Over every page while the signed-in reader's address waits for its link (DESIGN.md, Mail): why
// publishing, commenting and rating wait, and a way to have the link sent again.
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { api } from '../api.ts';
import { system } from '../endpoints.ts';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { useRead } from '../hooks/useRead.ts';
import { currentUser } from '../state/session.ts';

export function VerifyEmailBanner() {
  useSignals();
  const user = currentUser.value;
  // Asked of the API only for a reader who may need it: a visitor's page asks for nothing.
  return user && !user.email_verified ? <BannerWhenMailIsOn email={user.email} /> : null;
}

function BannerWhenMailIsOn({ email }: { email: string }) {
  const mailOn = useRead(system.config()).value?.mail === true;
  if (!mailOn) return null;
  return (
    <aside className="verify-banner" aria-label="Verify your email address">
      <p className="verify-banner__text">
        Please verify your email address: follow the link we mailed to <strong>{email}</strong> to publish, comment and rate.
      </p>
      <ResendVerificationButton />
    </aside>
  );
}

export function ResendVerificationButton() {
  const [busy, setBusy] = useState(false);
  async function resend() {
    setBusy(true);
    try {
      toastSuccess((await api.auth.resendVerification()).detail, 'Error sending the verification email');
    } catch (error) {
      toastApiError(error, 'Error sending the verification email');
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className="button verify-banner__button" onClick={resend} disabled={busy}>
      {busy ? 'Sending…' : 'Resend verification email'}
    </button>
  );
}
