// Settings, Muted (DESIGN.md, Mutes): the authors and hashtags the reader muted, each with
// 'Unmute', and a small form to mute a hashtag. What they muted leaves their front page, Recent,
// The Pulse and search.
import { useSignals } from '@preact/signals-react/runtime';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { myMutes, setHashtagMute, setUserMute } from '../../state/mutes.ts';
import { InputField } from '../Field.tsx';
import { authorHref } from '../posts/PostBits.tsx';
import { SettingsSection } from './SettingsSection.tsx';

export function MutedSection() {
  useSignals();
  const mutes = myMutes.value;
  const [tag, setTag] = useState('');
  const [busy, setBusy] = useState(false);

  async function run(change: () => Promise<boolean>): Promise<boolean> {
    setBusy(true);
    try {
      return await change();
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await run(() => setHashtagMute(tag, true))) setTag('');
  }

  return (
    <SettingsSection id="settings-muted" title="Muted"
      lede="Their articles leave your front page, The Pulse and your searches; their comments fold away.">
      {mutes === null ? <p className="quiet">Loading…</p> : (
        <div className="muted">
          <h3 className="muted__title">Authors</h3>
          {mutes.users.length === 0 ? <p className="quiet">You have muted no authors.</p> : (
            <ul className="muted__list" aria-label="Muted authors">
              {mutes.users.map((user) => (
                <li key={user.id} className="muted__item">
                  <Link href={authorHref(user.username)}>{user.username}</Link>
                  <button type="button" className="button button--small" disabled={busy}
                    onClick={() => void run(() => setUserMute(user.id, false))}>
                    Unmute<span className="visually-hidden"> {user.username}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <h3 className="muted__title">Hashtags</h3>
          {mutes.hashtags.length === 0 ? <p className="quiet">You have muted no hashtags.</p> : (
            <ul className="muted__list" aria-label="Muted hashtags">
              {mutes.hashtags.map((hashtag) => (
                <li key={hashtag} className="muted__item">
                  <span>#{hashtag}</span>
                  <button type="button" className="button button--small" disabled={busy}
                    onClick={() => void run(() => setHashtagMute(hashtag, false))}>
                    Unmute<span className="visually-hidden"> #{hashtag}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form className="form muted__form" onSubmit={submit} noValidate aria-label="Mute a hashtag">
            <InputField id="mute-hashtag" label="Hashtag to mute" value={tag} onChange={(e) => setTag(e.target.value)} />
            <div className="settings__actions">
              <button type="submit" className="button" disabled={busy || tag.trim() === ''}>Mute</button>
            </div>
          </form>
        </div>
      )}
    </SettingsSection>
  );
}
