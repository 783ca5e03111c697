// /register (SPEC §2, §5): username, email, password twice, optional biography with a live
// counter, a link to login and a terms notice. Success goes to /login; an account that waits for
// approval (DESIGN.md, Registration) is told so here instead. /register?invite=CODE carries an
// invitation's code into the registration.
import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { BIO_MAX } from '../../shared/accounts.ts';
import { textLength } from '../../shared/text.ts';
import { InputField, TextAreaField } from '../components/Field.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { api } from '../api.ts';
import { system } from '../endpoints.ts';
import { useRead } from '../hooks/useRead.ts';
import {
  INVITATION_ONLY_MESSAGE, PENDING_REGISTRATION_MAIL_NOTE, PENDING_REGISTRATION_MESSAGE, REGISTRATION_CLOSED_MESSAGE,
} from '../../shared/registration.ts';
import { useSite } from '../state/site.ts';
import { toastApiError, toastSuccess } from '../feedback.ts';
import { firstInvalid, validateRegister, type Errors, type RegisterFields } from '../validation.ts';

const ORDER: (keyof RegisterFields)[] = ['username', 'email', 'password', 'confirmPassword', 'bio'];
const IDS: Record<keyof RegisterFields, string> = {
  username: 'register-username', email: 'register-email', password: 'register-password',
  confirmPassword: 'register-confirm', bio: 'register-bio',
};
const EMPTY: RegisterFields = { username: '', email: '', password: '', confirmPassword: '', bio: '' };

export function RegisterPage() {
  const [, navigate] = useLocation();
  const [fields, setFields] = useState<RegisterFields>(EMPTY);
  const [errors, setErrors] = useState<Errors<RegisterFields>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const invite = new URLSearchParams(useSearch()).get('invite') ?? '';
  const [pending, setPending] = useState(false);
  const mailOn = useRead(system.config()).value?.mail === true;
  const { registration } = useSite();

  const set = (field: keyof RegisterFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateRegister(fields);
    setErrors(found);
    const invalid = firstInvalid(ORDER, found);
    if (invalid) {
      form.current?.querySelector<HTMLElement>(`#${IDS[invalid]}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const bio = fields.bio.trim();
      const created = await api.auth.register({
        username: fields.username.trim(),
        email: fields.email.trim(),
        password: fields.password,
        ...(bio ? { bio } : {}),
        ...(invite ? { invite } : {}),
      });
      if (created.status === 'pending') {
        setPending(true);
        return;
      }
      toastSuccess('Account created successfully! You can now log in.', 'Error creating account');
      navigate('/login');
    } catch (error) {
      toastApiError(error, 'Error creating account');
      setBusy(false);
    }
  }

  if (pending) {
    return (
      <div className="auth auth--single">
        <section className="auth__form-column" role="status">
          <PageHeading title="Waiting for approval" kicker="Join the masthead" />
          <p className="auth__pending">{PENDING_REGISTRATION_MESSAGE}{mailOn ? ` ${PENDING_REGISTRATION_MAIL_NOTE}` : ''}</p>
          <p className="auth__switch"><Link href="/">Back to the FrontPage</Link></p>
        </section>
      </div>
    );
  }

  // Said before the form, not after a refused send: the server refuses all the same (403).
  const refusal = registration === 'closed' ? REGISTRATION_CLOSED_MESSAGE
    : registration === 'invite' && !invite ? INVITATION_ONLY_MESSAGE : undefined;
  if (refusal) {
    return (
      <div className="auth auth--single">
        <section className="auth__form-column" role="status">
          <PageHeading title="Register" kicker="Join the masthead" />
          <p className="auth__closed">{refusal}</p>
          <p className="auth__switch">Already have an account? <Link href="/login">Log in</Link></p>
        </section>
      </div>
    );
  }

  const bioLength = textLength(fields.bio);
  const bioOver = bioLength > BIO_MAX;
  return (
    <div className="auth">
      <section className="auth__form-column">
        <PageHeading title="Register" kicker="Join the masthead" />
        {invite ? <p className="auth__invited">You were invited: create your account below.</p> : null}
        <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Register">
          <InputField id={IDS.username} label="Username" autoComplete="username" required
            value={fields.username} onChange={set('username')} error={errors.username} />
          <InputField id={IDS.email} label="Email" type="email" autoComplete="email" required
            value={fields.email} onChange={set('email')} error={errors.email} />
          <div className="form__pair">
            <InputField id={IDS.password} label="Password" type="password" autoComplete="new-password" required
              value={fields.password} onChange={set('password')} error={errors.password} />
            <InputField id={IDS.confirmPassword} label="Confirm password" type="password" autoComplete="new-password"
              required value={fields.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} />
          </div>
          <TextAreaField id={IDS.bio} label="Biography (optional)" rows={4}
            value={fields.bio} onChange={set('bio')} error={errors.bio} hintId="register-bio-count"
            hint={
              <span id="register-bio-count" className={bioOver ? 'counter counter--over' : 'counter'}>
                {bioLength}/{BIO_MAX}
              </span>
            } />
          <p className="form__notice">
            By creating an account you agree to the Terms of Service and the Privacy Policy of Beatnik.
          </p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Creating account…' : 'Create account'}
          </button>
        </form>
        <p className="auth__switch">
          Already have an account? <Link href="/login">Login</Link>
        </p>
      </section>
      <aside className="auth__quote" aria-label="Quote">
        <blockquote>
          <p>“Write in recollection and amazement for yourself.”</p>
        </blockquote>
        <p className="auth__quote-source">— Jack Kerouac, <cite>Belief &amp; Technique for Modern Prose</cite></p>
      </aside>
    </div>
  );
}
