// /verify-email?token=… (DESIGN.md, Mail): the link a verification mail carries. Opening it
// confirms the address at once; the page says how that went, and a signed-in reader's banner goes.
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { api } from '../api.ts';
import { system } from '../endpoints.ts';
import { errorText } from '../feedback.ts';
import { useRead } from '../hooks/useRead.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { ResendVerificationButton } from '../components/VerifyEmailBanner.tsx';
import { currentUser, loadCurrentUser, sessionLoading } from '../state/session.ts';
import { NotFoundPage } from './NotFoundPage.tsx';

type Outcome = { done: boolean; text: string };

export function VerifyEmailPage() {
  useSignals();
  const mailOff = useRead(system.config()).value?.mail === false;
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>();
  const asked = useRef(false);

  useEffect(() => {
    if (mailOff || asked.current) return;
    asked.current = true; // once, even when React runs the effect twice
    api.auth.verifyEmail({ token }).then(
      ({ detail }) => setOutcome({ done: true, text: detail }),
      (error) => setOutcome({ done: false, text: errorText(error, 'Error verifying your email address') }),
    );
  }, [mailOff, token]);

  // A signed-in reader's account is read again once the session's first read is in: its answer
  // may predate the link.
  const checkingSession = sessionLoading.value;
  useEffect(() => {
    if (outcome?.done && !checkingSession && currentUser.value) void loadCurrentUser().catch(() => undefined);
  }, [outcome, checkingSession]);

  // Without mail there is no link to answer: the page is not there.
  if (mailOff) return <NotFoundPage />;

  const user = currentUser.value;
  return (
    <div className="auth auth--single">
      <section className="auth__form-column">
        <PageHeading title="Confirm your email address" kicker="Readers' entrance" />
        {outcome ? (
          <p className="auth__answer" role={outcome.done ? 'status' : 'alert'}>{outcome.text}</p>
        ) : (
          <p className="auth__answer" role="status">Confirming your address…</p>
        )}
        {outcome && !outcome.done && user && !user.email_verified ? (
          <p className="auth__switch"><ResendVerificationButton /></p>
        ) : null}
        <p className="auth__switch">
          <Link href="/">Go to the front page</Link>
        </p>
      </section>
    </div>
  );
}
