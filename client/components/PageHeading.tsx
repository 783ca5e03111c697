// A page's headline (the one h1) and the browser tab title that goes with it.
import { useEffect, type ReactNode } from 'react';

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Beatnik` : 'Beatnik';
  }, [title]);
}

export function PageHeading({ title, kicker, children }: { title: string; kicker?: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <header className="page-heading">
      {kicker ? <p className="page-heading__kicker">{kicker}</p> : null}
      <h1 className="page-heading__title">{title}</h1>
      {children}
    </header>
  );
}
