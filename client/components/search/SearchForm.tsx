// The search field (DESIGN.md, Reach: search): in the masthead on wide screens and at the top of
// /search. Submitting opens /search?q=… as a new page of history; on /search the field shows the
// query of the address, so it follows the back and forward buttons too.
import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SearchIcon } from '../icons.tsx';
import { queryOf, searchHref } from './searchQuery.ts';

export function SearchForm({ id, className, autoFocus = false }: { id: string; className: string; autoFocus?: boolean }) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const current = location === '/search' ? queryOf(search) : '';
  const [text, setText] = useState(current);
  const input = useRef<HTMLInputElement>(null);
  // The address's query replaces the field's text when it changes (back, forward, a link).
  const [shownQuery, setShownQuery] = useState(current);
  if (shownQuery !== current) {
    setShownQuery(current);
    setText(current);
  }
  // A reader may type into the server's page before the script has run: hydration keeps what the
  // field shows, so adopt it rather than leave the state (and the next submit) behind it.
  useLayoutEffect(() => {
    const shown = input.current?.value;
    if (shown !== undefined && shown !== current) setText(shown);
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    // What the field shows is what the reader asked for.
    const href = searchHref(input.current?.value ?? text);
    if (href !== `${location}${search ? `?${search}` : ''}`) navigate(href);
  }

  return (
    // A plain form too: without JavaScript it still opens /search?q=… (server-rendered).
    <form className={`search-form ${className}`} role="search" action="/search" method="get" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">Search articles</label>
      <input ref={input} id={id} className="search-form__input" type="search" name="q" value={text} autoComplete="off"
        placeholder="Search the archive" autoFocus={autoFocus} enterKeyHint="search"
        onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="search-form__button" aria-label="Search"><SearchIcon /></button>
    </form>
  );
}
