// A file field in the paper's look: the real <input type="file"> keeps its keyboard, screen
// reader and form behaviour but is hidden from the eye; the label beside it, drawn as a button,
// is what readers see and click, and it shows the focus ring when the input has it.
import type { ChangeEvent, Ref } from 'react';

export function FilePicker({ id, buttonLabel, onChange, describedBy, invalid, inputRef, accept = 'image/*' }: {
  id: string;
  buttonLabel: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  describedBy?: string;
  invalid?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  accept?: string;
}) {
  return (
    <span className="file-picker">
      <input ref={inputRef} id={id} className="visually-hidden file-picker__input" type="file" accept={accept}
        onChange={onChange} aria-describedby={describedBy} aria-invalid={invalid ? true : undefined} />
      <label className="button button--small file-picker__button" htmlFor={id}>{buttonLabel}</label>
    </span>
  );
}
