// A labelled form control with its inline error (announced, and tied by aria-describedby), and the
// labelled select of the reader pages' filters.
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface FieldFrameProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

function FieldFrame({ id, label, error, hint, children }: FieldFrameProps) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <div className="field__top">
        <label className="field__label" htmlFor={id}>{label}</label>
        {hint}
      </div>
      {children}
      {error ? <p className="field__error" id={`${id}-error`} role="alert">{error}</p> : null}
    </div>
  );
}

function describedBy(id: string, error?: string, extra?: string): string | undefined {
  return [error ? `${id}-error` : undefined, extra].filter(Boolean).join(' ') || undefined;
}

type InputFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string; label: string; error?: string; hint?: ReactNode; hintId?: string;
};

export function InputField({ id, label, error, hint, hintId, ...input }: InputFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input id={id} className="field__control" aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hintId)} {...input} />
    </FieldFrame>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  id: string; label: string; error?: string; hint?: ReactNode; hintId?: string;
};

export function TextAreaField({ id, label, error, hint, hintId, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <textarea id={id} className="field__control field__control--area" aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hintId)} {...textarea} />
    </FieldFrame>
  );
}

/** A filter's select: its label above, one option per value (sorts, time periods). */
export function SelectField<V extends string>({ id, label, value, options, onChange }: {
  id: string;
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange(value: NoInfer<V>): void;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>{label}</label>
      <select id={id} className="field__control" value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </div>
  );
}
