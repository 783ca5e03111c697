// One section of /settings: its heading and a line of what it does on the left, the form on the right.
import type { ReactNode } from 'react';

export function SettingsSection({ id, title, lede, danger = false, children }: {
  id: string;
  title: string;
  lede: ReactNode;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <section className={danger ? 'settings__section settings__section--danger' : 'settings__section'} aria-labelledby={id}>
      <header>
        <h2 id={id} className="settings__title">{title}</h2>
        <p className="settings__lede">{lede}</p>
      </header>
      <div className="settings__body">{children}</div>
    </section>
  );
}
