// The admin panel's dialogs: ban a user, send a notification, delete a post or a comment with a reason.
// Each checks its required fields (SPEC §5), sends, toasts the outcome and tells the panel.
import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import type { Comment, Post, PrivateUser } from '../../types.ts';
import { InputField, TextAreaField } from '../Field.tsx';
import { FormActions, Modal } from '../Modal.tsx';
import {
  BAN_DAYS_DEFAULT, BAN_DAYS_MAX, BAN_DAYS_MIN, banDaysOf, banPayload, banSuccessText,
  DELETE_REASON_REQUIRED, INCOMPLETE, type BanType,
} from './adminRules.ts';
import {
  BAN_REASON_MAX, COMMENT_DELETE_REASON_REQUIRED, DELETE_REASON_MAX, NOTIFICATION_MESSAGE_MAX, NOTIFICATION_SUBJECT_MAX,
} from '../../../shared/moderation.ts';

/** Who a ban is for: a row of the Users tab, or the author of reported content. */
type BanTarget = Pick<PrivateUser, 'id' | 'username'>;
/** The article a deletion names. */
type PostToDelete = Pick<Post, 'id' | 'title' | 'author_username'>;

function FormError({ id, message }: { id: string; message?: string }) {
  return message ? <p className="field__error" id={id} role="alert">{message}</p> : null;
}

export function BanDialog({ user, onClose, onDone }: { user: BanTarget; onClose: () => void; onDone: (banned: PrivateUser) => void }) {
  const [type, setType] = useState<BanType>('temporary');
  const [days, setDays] = useState(String(BAN_DAYS_DEFAULT));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const payload = banPayload(user.id, type, days, reason);
    if ('error' in payload) {
      setError(payload.error);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const response = await api.admin.ban(payload);
      toastSuccess(response.message || banSuccessText(type, banDaysOf(days)), 'Error banning user');
      onDone(response.user);
      onClose();
    } catch (err) {
      toastApiError(err, 'Error banning user');
      setBusy(false);
    }
  }

  return (
    <Modal title={`Ban ${user.username}`} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate aria-label={`Ban ${user.username}`}>
        <fieldset className="choice">
          <legend className="field__label">Type of ban</legend>
          <label className="choice__option">
            <input type="radio" name="ban-type" value="temporary" checked={type === 'temporary'} onChange={() => setType('temporary')} />
            Temporary
          </label>
          <label className="choice__option">
            <input type="radio" name="ban-type" value="permanent" checked={type === 'permanent'} onChange={() => setType('permanent')} />
            Permanent
          </label>
        </fieldset>
        {type === 'temporary' ? (
          <InputField id="ban-days" label="Days (1 to 365)" type="number" inputMode="numeric"
            min={BAN_DAYS_MIN} max={BAN_DAYS_MAX} value={days} onChange={(e) => setDays(e.target.value)}
            onBlur={() => setDays(String(banDaysOf(days)))} />
        ) : null}
        <TextAreaField id="ban-reason" label="Reason" rows={3} value={reason} maxLength={BAN_REASON_MAX}
          onChange={(e) => { setReason(e.target.value); setError(undefined); }}
          aria-describedby={error ? 'ban-error' : undefined} />
        <FormError id="ban-error" message={error} />
        <FormActions label="Ban user" busyLabel="Banning…" busy={busy} danger onCancel={onClose} />
      </form>
    </Modal>
  );
}

export function NotifyDialog({ user, onClose }: { user: PrivateUser; onClose: () => void }) {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!subject.trim() || !message.trim()) {
      setError(INCOMPLETE);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await api.admin.notify({ user_id: user.id, subject: subject.trim(), message: message.trim(), notification_type: 'general' });
      toastSuccess('Notification sent successfully', 'Error sending notification');
      onClose();
    } catch (err) {
      toastApiError(err, 'Error sending notification');
      setBusy(false);
    }
  }

  return (
    <Modal title={`Notify ${user.username}`} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate aria-label={`Notify ${user.username}`}>
        <InputField id="notify-subject" label="Subject" value={subject} maxLength={NOTIFICATION_SUBJECT_MAX}
          onChange={(e) => { setSubject(e.target.value); setError(undefined); }}
          aria-describedby={error ? 'notify-error' : undefined} />
        <TextAreaField id="notify-message" label="Message" rows={5} value={message} maxLength={NOTIFICATION_MESSAGE_MAX}
          onChange={(e) => { setMessage(e.target.value); setError(undefined); }}
          aria-describedby={error ? 'notify-error' : undefined} />
        <FormError id="notify-error" message={error} />
        <FormActions label="Send notification" busyLabel="Sending…" busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}

/** What differs between deleting a post and a comment: the words, the field and the call. */
interface ReasonedDeletion {
  /** 'post' or 'comment': the dialog's title, its form's name and its button say 'Delete {what}'. */
  what: 'post' | 'comment';
  message: ReactNode;
  reasonId: string;
  reasonRequired: string;
  remove(reason: string): Promise<unknown>;
  onClose(): void;
  onDeleted(): void;
}

/** An admin deleting content with a reason: the author reads it, the moderation log keeps it. */
function DeleteWithReasonDialog({ what, message, reasonId, reasonRequired, remove, onClose, onDeleted }: ReasonedDeletion) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const title = `Delete ${what}`;
  const failed = `Error deleting ${what}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setError(reasonRequired);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await remove(reason.trim());
      toastSuccess(`${what === 'post' ? 'Post' : 'Comment'} deleted successfully`, failed);
      onDeleted();
      onClose();
    } catch (err) {
      toastApiError(err, failed);
      setBusy(false);
    }
  }

  return (
    <Modal title={title} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate aria-label={title}>
        <p className="modal__message">{message}</p>
        <TextAreaField id={reasonId} label="Reason" rows={3} value={reason} maxLength={DELETE_REASON_MAX}
          error={error} onChange={(e) => { setReason(e.target.value); setError(undefined); }} />
        <FormActions label={title} busyLabel="Deleting…" busy={busy} danger onCancel={onClose} />
      </form>
    </Modal>
  );
}

export function DeletePostDialog<P extends PostToDelete>({ post, onClose, onDeleted }: { post: P; onClose: () => void; onDeleted: (post: P) => void }) {
  return (
    <DeleteWithReasonDialog what="post" reasonId="delete-reason" reasonRequired={DELETE_REASON_REQUIRED}
      message={<>Delete “{post.title}” by {post.author_username}? The author is told, with your reason. This cannot be undone.</>}
      remove={(reason) => api.admin.deletePost(post.id, reason)} onClose={onClose} onDeleted={() => onDeleted(post)} />
  );
}

/** An admin removing someone else's comment: the author reads the reason, the moderation log keeps it.
 * A comment from the fediverse tells its author nothing (nothing is sent back to their server). */
export function DeleteCommentDialog({ comment, onClose, onDeleted }: {
  comment: Pick<Comment, 'id' | 'author_username' | 'content' | 'remote_author'>; onClose: () => void; onDeleted: () => void;
}) {
  const remote = comment.remote_author;
  return (
    <DeleteWithReasonDialog what="comment" reasonId="delete-comment-reason" reasonRequired={COMMENT_DELETE_REASON_REQUIRED}
      message={remote ? (
        <>Delete this comment by {remote.handle}, from the fediverse? Nothing is sent to their server. This cannot be undone.</>
      ) : (
        <>Delete this comment by {comment.author_username}? The author is told, with your reason, and the public moderation
          log records it. This cannot be undone.</>
      )}
      remove={(reason) => api.comments.remove(comment.id, reason)} onClose={onClose} onDeleted={onDeleted} />
  );
}
