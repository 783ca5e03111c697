// Settings, Muted (DESIGN.md, Mutes): the authors, fediverse accounts and hashtags the reader
// muted, each with 'Unmute', and a small form to mute a hashtag. What they muted leaves their front
// page, Recent, The Pulse and search; a fediverse account is muted from one of its comments.
import { useSignals } from '@preact/signals-react/runtime';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { myMutes, setHashtagMute, setRemoteMute, setUserMute } from '../../state/mutes.ts';
import { useSite } from '../../state/site.ts';
import { InputField } from '../Field.tsx';
import { authorHref } from '../posts/PostBits.tsx';
import { RemoteAuthorLink, remoteName } from '../RemoteAuthor.tsx';
import { SettingsSection } from './SettingsSection.tsx';

export function MutedSection() {
  useSignals();
  const mutes = myMutes.value;
  const remote = mutes?.remote ?? [];
  const federates = useSite().federation.enabled;
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
          {remote.length > 0 || federates ? (
            <>
              <h3 className="muted__title">Fediverse accounts</h3>
              {remote.length === 0 ? <p className="quiet">You have muted no fediverse accounts.</p> : (
                <ul className="muted__list" aria-label="Muted fediverse accounts">
                  {remote.map((author) => (
                    <li key={author.handle} className="muted__item">
                      <span className="muted__who">
                        <RemoteAuthorLink author={author} className="muted__name" />
                        {remoteName(author) !== author.handle ? <span className="muted__handle">{author.handle}</span> : null}
                      </span>
                      <button type="button" className="button button--small" disabled={busy}
                        onClick={() => void run(() => setRemoteMute(author.handle, false))}>
                        Unmute<span className="visually-hidden"> {author.handle}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : null}
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
