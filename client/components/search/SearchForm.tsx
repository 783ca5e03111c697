// The search field (DESIGN.md, Reach: search): in the masthead on wide screens and at the top of
// /search. Submitting opens /search?q=… as a new page of history; on /search the field shows the
// query of the address, so it follows the back and forward buttons too.
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SearchIcon } from '../icons.tsx';
import { queryOf, searchHref } from './searchQuery.ts';

export function SearchForm({ id, className, autoFocus = false }: { id: string; className: string; autoFocus?: boolean }) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const current = location === '/search' ? queryOf(search) : '';
  const [text, setText] = useState(current);
  useEffect(() => { setText(current); }, [current]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const href = searchHref(text);
    if (href !== `${location}${search ? `?${search}` : ''}`) navigate(href);
  }

  return (
    // A plain form too: without JavaScript it still opens /search?q=… (server-rendered).
    <form className={`search-form ${className}`} role="search" action="/search" method="get" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">Search articles</label>
      <input id={id} className="search-form__input" type="search" name="q" value={text} autoComplete="off"
        placeholder="Search the archive" autoFocus={autoFocus} enterKeyHint="search"
        onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="search-form__button" aria-label="Search"><SearchIcon /></button>
    </form>
  );
}
