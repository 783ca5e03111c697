// An accessible modal on the native <dialog>: focus is trapped, Escape closes, the page behind
// is inert. Every modal of SPEC §2 (edit article, delete confirmation, edit profile, followers
// lists, admin dialogs) is built on it.
import { useEffect, useRef, type ReactNode } from 'react';

export function Modal({ title, onClose, children, wide = false }: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal--wide' : 'modal'}
      aria-labelledby="modal-title"
      onCancel={(event) => { event.preventDefault(); onClose(); }}
    >
      <header className="modal__header">
        <h2 id="modal-title" className="modal__title">{title}</h2>
        <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>×</button>
      </header>
      <div className="modal__body">{children}</div>
    </dialog>
  );
}

/** A modal form's buttons: Cancel, and its submit button, which says `busyLabel` while the form is sent. */
export function FormActions({ label, busyLabel, busy, danger = false, onCancel }: {
  label: string;
  busyLabel: string;
  busy: boolean;
  /** A ban or a deletion: the submit button in the danger colour. */
  danger?: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="modal__actions">
      <button type="button" className="button" onClick={onCancel} disabled={busy}>Cancel</button>
      <button type="submit" className={danger ? 'button button--danger' : 'button button--primary'} disabled={busy}>{busy ? busyLabel : label}</button>
    </div>
  );
}

/** "Are you sure?" with a confirm and a cancel button; confirm shows busy while it runs. */
export function ConfirmDialog({ title, message, confirmLabel, busy = false, onConfirm, onCancel }: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal title={title} onClose={onCancel}>
      <div className="modal__message">{message}</div>
      <div className="modal__actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>Cancel</button>
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={busy} autoFocus>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
