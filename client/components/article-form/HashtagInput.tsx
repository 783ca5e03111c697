// Hashtag entry (SPEC §2, §5): Enter adds; empty entries and duplicates are ignored; a leading
// '#' is stripped; at most 3; a remove button only when there is more than one.
import { useState, type KeyboardEvent } from 'react';
import { HASHTAG_MAX_LENGTH, HASHTAGS_MAX, hashtagProblem, normalizeHashtag } from '../../../shared/articles.ts';
import { addHashtag, hashtagCounterText } from './articleRules.ts';

export function HashtagInput({ id, tags, onChange, draft, onDraftChange, error }: {
  id: string;
  tags: string[];
  onChange: (tags: string[]) => void;
  /** The text typed but not yet added (kept by the form, which adds it when publishing). */
  draft: string;
  onDraftChange: (text: string) => void;
  error?: string;
}) {
  const [problem, setProblem] = useState<string>();
  const full = tags.length >= HASHTAGS_MAX;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds a tag; it never submits the article
    const tag = normalizeHashtag(draft);
    const why = tag && !tags.includes(tag) ? hashtagProblem(tag) : undefined;
    setProblem(why);
    if (why) return;
    onChange(addHashtag(tags, draft));
    onDraftChange('');
  }

  const message = problem ?? error;
  return (
    <div className={message ? 'field field--invalid' : 'field'}>
      <div className="field__top">
        <label className="field__label" htmlFor={id}>Hashtags</label>
        <span className="counter" id={`${id}-count`} aria-live="polite">{hashtagCounterText(tags.length)}</span>
      </div>
      {tags.length > 0 ? (
        <ul className="hashtag-chips" aria-label="Hashtags added">
          {tags.map((tag) => (
            <li key={tag} className="hashtag-chip">
              <span>#{tag}</span>
              {tags.length > 1 ? (
                <button type="button" className="hashtag-chip__remove" aria-label={`Remove #${tag}`}
                  onClick={() => onChange(tags.filter((t) => t !== tag))}>×</button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <input id={id} className="field__control" type="text" value={draft} disabled={full}
        maxLength={HASHTAG_MAX_LENGTH + 1} autoComplete="off" enterKeyHint="enter"
        placeholder={full ? 'Maximum reached' : 'Type a hashtag and press Enter'}
        aria-invalid={message ? true : undefined}
        aria-describedby={[`${id}-count`, `${id}-help`, message ? `${id}-error` : ''].filter(Boolean).join(' ')}
        onChange={(event) => { onDraftChange(event.target.value); setProblem(undefined); }}
        onKeyDown={onKeyDown} />
      <p className="field__help" id={`${id}-help`}>Between 1 and 3 hashtags, press Enter after each one.</p>
      {message ? <p className="field__error" id={`${id}-error`} role="alert">{message}</p> : null}
    </div>
  );
}
