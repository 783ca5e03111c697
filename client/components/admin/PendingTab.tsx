// Admin, Pending tab (DESIGN.md, Registration): the accounts waiting for approval, oldest first,
// each with Approve, and Reject with a reason (mailed to them when mail is on; the account is then
// removed). 50 rows at a time with 'Load more'.
import { useCallback, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { humanDateTime } from '../../format.ts';
import { usePagedList } from '../../hooks/usePagedList.ts';
import type { PendingAccount } from '../../../server/api-types.ts';
import { REJECTION_REASON_MAX } from '../../../shared/registration.ts';
import { TextAreaField } from '../Field.tsx';
import { FormActions, Modal } from '../Modal.tsx';
import { AdminList } from './AdminList.tsx';

const PAGE_SIZE = 50;

export function PendingTab({ onChanged }: { onChanged: () => void }) {
  const [busyId, setBusyId] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<PendingAccount | null>(null);
  const fetchPage = useCallback(async (skip: number, limit: number) => {
    const response = await api.registration.pending({ skip, limit });
    return { items: response.users, total: response.total };
  }, []);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading pending accounts'));

  async function approve(account: PendingAccount) {
    setBusyId(account.id);
    try {
      const response = await api.registration.approve(account.id);
      toastSuccess(response.detail, 'Error approving account');
      list.remove(account.id);
      onChanged();
    } catch (error) {
      toastApiError(error, 'Error approving account');
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section aria-label="Accounts waiting for approval">
      <AdminList list={list} loading="Loading pending accounts…" noun="pending account" what="pending accounts"
        empty="No account is waiting for approval.">
        {(account) => (
          <li key={account.id} className="admin-row">
            <div className="admin-row__main">
              <p className="admin-row__title">{account.username}</p>
              <p className="admin-row__sub">
                {account.email}{account.email_verified ? '' : ' (not verified yet)'} · signed up{' '}
                <time dateTime={account.created_at}>{humanDateTime(account.created_at)}</time>
              </p>
              {account.bio ? <p className="admin-row__excerpt">{account.bio}</p> : null}
            </div>
            <div className="admin-row__actions">
              <button type="button" className="button button--small button--primary" disabled={busyId === account.id}
                onClick={() => void approve(account)} aria-label={`Approve ${account.username}`}>Approve</button>
              <button type="button" className="button button--small button--danger" disabled={busyId === account.id}
                onClick={() => setRejecting(account)} aria-label={`Reject ${account.username}`}>Reject</button>
            </div>
          </li>
        )}
      </AdminList>
      {rejecting ? (
        <RejectDialog account={rejecting} onClose={() => setRejecting(null)}
          onDone={() => { list.remove(rejecting.id); onChanged(); }} />
      ) : null}
    </section>
  );
}

function RejectDialog({ account, onClose, onDone }: { account: PendingAccount; onClose: () => void; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const response = await api.registration.reject(account.id, { reason: reason.trim() });
      toastSuccess(response.detail, 'Error rejecting account');
      onDone();
      onClose();
    } catch (error) {
      toastApiError(error, 'Error rejecting account');
      setBusy(false);
    }
  }

  return (
    <Modal title={`Reject ${account.username}`} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate aria-label={`Reject ${account.username}`}>
        <p>The account is removed, and its username and email address can be used again. The reason is mailed to {account.email} when mail is on.</p>
        <TextAreaField id="reject-reason" label="Reason (optional)" rows={3} value={reason} maxLength={REJECTION_REASON_MAX}
          onChange={(e) => setReason(e.target.value)} />
        <FormActions label="Reject account" busyLabel="Rejecting…" busy={busy} danger onCancel={onClose} />
      </form>
    </Modal>
  );
}
