// What the admin tabs' lists share: the toolbar's search box (Posts, Users) and filter (Posts,
// Users, Reports), labelled for screen readers only, and the paged list under it with its count.
import { useState, type FormEvent, type ReactNode } from 'react';
import { showingCount } from '../../format.ts';
import type { PagedList } from '../../hooks/usePagedList.ts';
import { LabelledSelect, type SelectProps } from '../Field.tsx';
import { LoadMore } from '../LoadMore.tsx';
import { Loading } from '../Loading.tsx';

/** A search form: what is typed is searched for on submit (the button, or Enter), trimmed; `children` are its filters. */
export function AdminSearch({ id, label, placeholder, onSearch, children }: {
  id: string;
  label: string;
  placeholder: string;
  onSearch(query: string): void;
  children: ReactNode;
}) {
  const [search, setSearch] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(search.trim());
  }
  return (
    <form className="admin-toolbar" role="search" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={id}>{label}</label>
      <input id={id} className="field__control admin-toolbar__search" type="search"
        placeholder={placeholder} value={search} onChange={(e) => setSearch(e.target.value)} />
      <button type="submit" className="button">Search</button>
      {children}
    </form>
  );
}

/** A filter of the tab's list: one option per value. */
export function AdminFilter<V extends string>(props: SelectProps<V>) {
  return <LabelledSelect {...props} labelClass="visually-hidden" selectClass="field__control admin-toolbar__select" />;
}

/**
 * A tab's paged list: 'Loading…', then how many of how many `noun`s are shown (and what they
 * match), a row per item or `empty`, and 'Load more' (`what` names them for it).
 */
export function AdminList<T extends { id: number }>({ list, loading, noun, query, empty, what, children }: {
  list: PagedList<T>;
  loading: string;
  noun: string;
  query?: string;
  empty: string;
  what: string;
  children(item: T): ReactNode;
}) {
  const items = list.items;
  if (items === null) return <Loading label={loading} />;
  return (
    <>
      <p className="admin-count" aria-live="polite">{showingCount(items.length, list.total, noun)}{query ? ` matching “${query}”` : ''}</p>
      {items.length === 0 ? <p className="empty-state">{empty}</p> : <ul className="admin-list">{items.map(children)}</ul>}
      <LoadMore list={list} what={what} />
    </>
  );
}
