// A labelled form control with its inline error (announced, and tied by aria-describedby), and the
// labelled search box and select of the reader pages' filters.
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface FieldFrameProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

export function FieldFrame({ id, label, error, hint, children }: FieldFrameProps) {
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

export function describedBy(id: string, error?: string, extra?: string): string | undefined {
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

export interface SelectProps<V extends string> {
  id: string;
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange(value: NoInfer<V>): void;
}

/** A label and a select with one option per value; the classes say where it stands. */
export function LabelledSelect<V extends string>({ id, label, value, options, onChange, labelClass = 'field__label', selectClass = 'field__control' }:
  SelectProps<V> & { labelClass?: string; selectClass?: string }) {
  return (
    <>
      <label className={labelClass} htmlFor={id}>{label}</label>
      <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </>
  );
}

/** A filter's select: its label above, one option per value (sorts, time periods). */
export function SelectField<V extends string>(props: SelectProps<V>) {
  return <div className="field"><LabelledSelect {...props} /></div>;
}

/** A filter's search box, its label above: the list follows what is typed. */
export function SearchField({ id, label, placeholder, value, onChange }: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>{label}</label>
      <input id={id} className="field__control" type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
