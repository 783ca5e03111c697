// A page's headline (the one h1) and the browser tab title that goes with it: the server writes
// the same title into a page it renders (server/pages/), and this keeps it right as the reader moves.
import { useEffect, type ReactNode } from 'react';
import { documentTitle } from '../../shared/site.ts';
import { useSite } from '../state/site.ts';

export function useDocumentTitle(title: string): void {
  const { name } = useSite();
  useEffect(() => {
    document.title = documentTitle(title, name);
  }, [title, name]);
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
