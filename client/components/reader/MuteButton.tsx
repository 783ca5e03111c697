// Mute / Unmute an author (DESIGN.md, Mutes): on an article's author line and on a profile, for a
// signed-in reader who is not that author. The state is the reader's list (state/mutes.ts); it
// shows once that list is known.
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { isMutedUser, myMutes, setUserMute } from '../../state/mutes.ts';

export function MuteButton({ userId, username }: { userId: number; username: string }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  if (myMutes.value === null) return null;
  const muted = isMutedUser(userId);

  async function toggle() {
    setBusy(true);
    await setUserMute(userId, !muted);
    setBusy(false);
  }

  return (
    <button type="button" className="button button--small" aria-pressed={muted} disabled={busy} onClick={() => void toggle()}>
      {muted ? 'Unmute' : 'Mute'}
      <span className="visually-hidden"> {username}</span>
    </button>
  );
}
