// Mute / Unmute a hashtag (DESIGN.md, Mutes), where a hashtag's articles are listed (The Pulse
// filtered by a hashtag): for a signed-in reader, once their list of mutes is known.
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { normalizeHashtag } from '../../../shared/articles.ts';
import { isMutedHashtag, myMutes, setHashtagMute } from '../../state/mutes.ts';

export function HashtagMuteButton({ tag }: { tag: string }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  const clean = normalizeHashtag(tag);
  if (myMutes.value === null || !clean) return null;
  const muted = isMutedHashtag(clean);

  async function toggle() {
    setBusy(true);
    await setHashtagMute(clean, !muted);
    setBusy(false);
  }

  return (
    <button type="button" className="link-button" aria-pressed={muted} disabled={busy} onClick={() => void toggle()}>
      {muted ? `Unmute #${clean}` : `Mute #${clean}`}
    </button>
  );
}
