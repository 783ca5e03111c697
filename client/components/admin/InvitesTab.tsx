// Admin, Invites tab (DESIGN.md, Registration): make an invitation (how many registrations, for
// how many days), copy its link, revoke it; the live ones listed, the latest to expire first.
// The links work while registration is by invitation (or in approval mode, where an invited
// account need not wait).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { toastApiError, toastError, toastSuccess } from '../../feedback.ts';
import { humanDateTime, plural } from '../../format.ts';
import type { Invite } from '../../../server/api-types.ts';
import { INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, INVITE_MAX_DAYS, INVITE_MAX_USES } from '../../../shared/registration.ts';
import { InputField } from '../Field.tsx';
import { Loading } from '../Loading.tsx';

export function InvitesTab() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [uses, setUses] = useState(String(INVITE_DEFAULT_USES));
  const [days, setDays] = useState(String(INVITE_DEFAULT_DAYS));
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setInvites((await api.registration.invites()).invites);
    } catch (error) {
      toastApiError(error, 'Error loading invitations');
    }
  }, []);
  useEffect(() => { void load(); }, [load]);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const made = await api.registration.invite({ uses: Number(uses), days: Number(days) });
      setInvites((current) => [made, ...(current ?? [])]);
      toastSuccess('Invitation created: copy its link and send it', 'Error creating invitation');
    } catch (error) {
      toastApiError(error, 'Error creating invitation');
    } finally {
      setBusy(false);
    }
  }

  async function copy(invite: Invite) {
    try {
      await navigator.clipboard.writeText(invite.url);
      toastSuccess('Link copied', 'Error copying link');
    } catch {
      toastError('Could not copy: select the link and copy it');
    }
  }

  async function revoke(invite: Invite) {
    try {
      await api.registration.revokeInvite(invite.code);
      setInvites((current) => (current ?? []).filter((i) => i.code !== invite.code));
      toastSuccess('Invitation revoked', 'Error revoking invitation');
    } catch (error) {
      toastApiError(error, 'Error revoking invitation');
    }
  }

  return (
    <section aria-label="Invitations">
      <form className="form invite-form" onSubmit={create} aria-label="New invitation">
        <div className="form__pair">
          <InputField id="invite-uses" label={`Registrations (1 to ${INVITE_MAX_USES})`} type="number" inputMode="numeric"
            min={1} max={INVITE_MAX_USES} value={uses} onChange={(e) => setUses(e.target.value)} />
          <InputField id="invite-days" label={`Days valid (1 to ${INVITE_MAX_DAYS})`} type="number" inputMode="numeric"
            min={1} max={INVITE_MAX_DAYS} value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Creating…' : 'Create invitation'}</button>
      </form>
      {invites === null ? <Loading label="Loading invitations…" /> : invites.length === 0
        ? <p className="empty-state">No invitation is out.</p>
        : (
          <ul className="admin-list">
            {invites.map((invite) => (
              <li key={invite.code} className="admin-row">
                <div className="admin-row__main">
                  <label className="visually-hidden" htmlFor={`invite-${invite.code}`}>Invitation link</label>
                  <input id={`invite-${invite.code}`} className="field__control invite-link" readOnly value={invite.url}
                    onFocus={(e) => e.target.select()} />
                  <p className="admin-row__sub">
                    {plural(invite.uses_left, 'registration')} left · expires{' '}
                    <time dateTime={invite.expires_at}>{humanDateTime(invite.expires_at)}</time>
                  </p>
                </div>
                <div className="admin-row__actions">
                  <button type="button" className="button button--small" onClick={() => void copy(invite)}
                    aria-label={`Copy link of invitation ${invite.code}`}>Copy link</button>
                  <button type="button" className="button button--small button--danger" onClick={() => void revoke(invite)}
                    aria-label={`Revoke invitation ${invite.code}`}>Revoke</button>
                </div>
              </li>
            ))}
          </ul>
        )}
    </section>
  );
}
