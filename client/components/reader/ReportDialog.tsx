// Report an article or a comment (DESIGN.md, Reports): a reason and, if the reader likes, a note
// for the editors (at most 500 characters). The server checks again and answers in words: a
// second report of the same thing, or one's own, is refused with its reason.
import { useState, type FormEvent } from 'react';
import {
  REPORT_NOTE_MAX, REPORT_REASON_LABELS, REPORT_REASON_MESSAGE, REPORT_REASONS, reportNoteProblem, type ReportReasonName,
} from '../../../shared/reports.ts';
import { textLength } from '../../../shared/text.ts';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import type { ReportTargetType } from '../../types.ts';
import { TextAreaField } from '../Field.tsx';
import { FormActions, Modal } from '../Modal.tsx';

export const REPORT_SENT = 'Thank you. The editors will look at it.';
const FAILED = 'Error sending report';

export function ReportDialog({ type, id, onClose }: { type: ReportTargetType; id: number; onClose: () => void }) {
  const [reason, setReason] = useState<ReportReasonName | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [noteError, setNoteError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const what = type === 'post' ? 'article' : 'comment';
  const length = textLength(note);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = reportNoteProblem(note);
    setError(reason ? undefined : REPORT_REASON_MESSAGE);
    setNoteError(problem);
    if (!reason || problem) return;
    setBusy(true);
    try {
      await api.reports.create({ target_type: type, target_id: id, reason, note: note.trim() || undefined });
      toastSuccess(REPORT_SENT, FAILED);
      onClose();
    } catch (err) {
      toastApiError(err, FAILED);
      setBusy(false);
    }
  }

  return (
    <Modal title={`Report this ${what}`} onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate aria-label={`Report this ${what}`}>
        <p className="modal__message">Tell the editors what is wrong with this {what}. The author is not told who reported it.</p>
        <fieldset className="choice" aria-describedby={error ? 'report-reason-error' : undefined}>
          <legend className="field__label">Reason</legend>
          {REPORT_REASONS.map((value) => (
            <label key={value} className="choice__option">
              <input type="radio" name="report-reason" value={value} checked={reason === value}
                onChange={() => { setReason(value); setError(undefined); }} />
              {REPORT_REASON_LABELS[value]}
            </label>
          ))}
        </fieldset>
        {error ? <p className="field__error" id="report-reason-error" role="alert">{error}</p> : null}
        <TextAreaField id="report-note" label="Note for the editors (optional)" rows={3} value={note} error={noteError}
          onChange={(e) => { setNote(e.target.value); setNoteError(undefined); }}
          hint={<span className={length > REPORT_NOTE_MAX ? 'counter counter--over' : 'counter'}>{length}/{REPORT_NOTE_MAX}</span>} />
        <FormActions label="Send report" busyLabel="Sending…" busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
