// 'Follow on the fediverse' on a profile (DESIGN.md, The fediverse (ActivityPub)): the author's
// @username@host, as text to select and with a button that copies it, for someone on Mastodon or
// any other server to paste into their search. Shown only while the site federates.
import { useRef } from 'react';
import toast from 'react-hot-toast';
import { FOLLOW_ON_FEDIVERSE, fediverseHandle } from '../../../shared/fediverse.ts';
import { toastSuccess } from '../../feedback.ts';
import { useSite } from '../../state/site.ts';

export const HANDLE_COPIED = 'Handle copied';
/** Where the browser gives no clipboard (a page not served over https): the handle is selected instead. */
export const HANDLE_SELECTED = 'The handle is selected: copy it with Ctrl+C (⌘C on a Mac)';

export function FediverseFollow({ username }: { username: string }) {
  const { federation } = useSite();
  const text = useRef<HTMLElement>(null);
  if (!federation.enabled) return null;
  const handle = fediverseHandle(username, federation.host);

  async function copy() {
    try {
      await navigator.clipboard.writeText(handle);
      toastSuccess(HANDLE_COPIED, HANDLE_SELECTED);
    } catch {
      if (text.current) window.getSelection()?.selectAllChildren(text.current);
      toast(HANDLE_SELECTED, { id: HANDLE_SELECTED });
    }
  }

  return (
    <div className="fediverse" role="group" aria-labelledby="fediverse-title">
      <p id="fediverse-title" className="fediverse__title">{FOLLOW_ON_FEDIVERSE}</p>
      <p className="fediverse__row">
        <code ref={text} className="fediverse__handle">{handle}</code>
        <button type="button" className="button button--small" onClick={() => void copy()}>
          Copy<span className="visually-hidden"> {handle}</span>
        </button>
      </p>
      <p className="fediverse__hint">Search for it on Mastodon or any other fediverse server, and follow.</p>
    </div>
  );
}
