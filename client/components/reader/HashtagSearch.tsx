// The Pulse's hashtag search box: up to 5 partial-match suggestions from /api/hashtags, the matched
// part in <mark>, each with its post count. A combobox: arrows move, Enter picks, Escape closes.
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api } from '../../api.ts';
import { plural } from '../../format.ts';
import type { HashtagStat } from '../../types.ts';
import { splitMatch } from './highlight.ts';

export const SUGGESTION_COUNT = 5;
const DEBOUNCE_MS = 200;

export function HashtagSearch({ value, onSearch }: { value: string; onSearch(hashtag: string): void }) {
  const [text, setText] = useState(value);
  const [suggestions, setSuggestions] = useState<HashtagStat[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();

  useEffect(() => { setText(value); }, [value]);

  const query = text.trim().replace(/^#+/, '');
  useEffect(() => {
    if (!query || !open) { setSuggestions([]); return; }
    let live = true;
    const timer = setTimeout(() => {
      api.discovery.hashtags({ search: query, limit: SUGGESTION_COUNT })
        .then((list) => { if (live) { setSuggestions(list.slice(0, SUGGESTION_COUNT)); setActive(-1); } })
        .catch(() => { if (live) setSuggestions([]); });
    }, DEBOUNCE_MS);
    return () => { live = false; clearTimeout(timer); };
  }, [query, open]);

  function pick(tag: string) {
    setText(tag);
    setOpen(false);
    onSearch(tag);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = active >= 0 ? suggestions[active] : undefined;
    pick(chosen ? chosen.hashtag : query);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && suggestions.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  }

  const showList = open && suggestions.length > 0;
  return (
    // action and name: without JavaScript the form still asks the server for /ranks?hashtag=….
    <form className="hashtag-search" role="search" action="/ranks" onSubmit={submit}>
      <label htmlFor="pulse-hashtag" className="field__label">Search hashtags</label>
      <div className="hashtag-search__box">
        <input id="pulse-hashtag" name="hashtag" className="field__control" type="search" value={text} autoComplete="off"
          placeholder="e.g. jazz" role="combobox" aria-expanded={showList} aria-controls={listId} aria-autocomplete="list"
          aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
          onChange={(e) => { setText(e.target.value); setOpen(true); }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown} />
        <button type="submit" className="button button--small button--primary">Search</button>
      </div>
      <ul id={listId} role="listbox" aria-label="Hashtag suggestions" className="suggestions" hidden={!showList}>
        {suggestions.map((s, i) => {
          const parts = splitMatch(s.hashtag, query);
          return (
            <li key={s.hashtag} id={`${listId}-${i}`} role="option" aria-selected={i === active}
              className={i === active ? 'suggestions__item suggestions__item--active' : 'suggestions__item'}
              onMouseDown={(e) => { e.preventDefault(); pick(s.hashtag); }}>
              <span>#{parts.before}<mark>{parts.match}</mark>{parts.after}</span>
              <span className="suggestions__count">{plural(s.count, 'post')}</span>
            </li>
          );
        })}
      </ul>
    </form>
  );
}
