// /unsubscribe?token=… (DESIGN.md, Mail): where a notification mail's or a digest's unsubscribe
// link leads. It asks first, with one button; no sign-in needed. A mail client's one-click POST
// (RFC 8058) reaches the server without this page.
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { mailKindsText } from '../../shared/mail-kinds.ts';
import { api } from '../api.ts';
import { account, system } from '../endpoints.ts';
import { errorText, toastApiError } from '../feedback.ts';
import { useRead } from '../hooks/useRead.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';

export function UnsubscribePage() {
  const mailOff = useRead(system.config()).value?.mail === false;
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const question = useRead(account.unsubscribeQuestion(token));
  const [answer, setAnswer] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (mailOff) return <NotFoundPage />;

  async function confirm() {
    setBusy(true);
    try {
      setAnswer((await api.account.unsubscribe(token)).detail);
    } catch (error) {
      toastApiError(error, 'Error unsubscribing');
    } finally {
      setBusy(false);
    }
  }

  let body;
  if (answer) body = <p className="auth__answer" role="status">{answer}</p>;
  else if (question.error) body = <p className="auth__answer" role="alert">{errorText(question.error, 'Error reading the unsubscribe link')}</p>;
  else if (!question.value) body = <p className="auth__answer" role="status">Reading the link…</p>;
  else {
    body = (
      <>
        <p className="auth__lead">Stop mail about {mailKindsText(question.value.kinds)}?</p>
        <button type="button" className="button button--primary" onClick={confirm} disabled={busy}>
          {busy ? 'Unsubscribing…' : 'Unsubscribe'}
        </button>
      </>
    );
  }

  return (
    <div className="auth auth--single">
      <section className="auth__form-column">
        <PageHeading title="Unsubscribe" kicker="Mail from the paper" />
        {body}
        <p className="auth__switch">
          Signed in? <Link href="/settings">Choose every kind of mail in Settings</Link>
        </p>
      </section>
    </div>
  );
}
