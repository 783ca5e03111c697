// The offer of what a form kept and did not send (editor/unsent.ts): restore it or throw it away.
// Into an empty form it is put back at once, and the notice says so, with a way to undo that.
import { TimeAgo } from '../TimeAgo.tsx';

export function UnsentNotice({ savedAt, note, onRestore, onDiscard }: {
  savedAt: string;
  /** What the copy cannot hold (an article's picture). */
  note?: string;
  /** Puts the copy in the form; none when it is back in the form already. */
  onRestore?: () => void;
  onDiscard(): void;
}) {
  const restored = onRestore === undefined;
  return (
    <div className="unsent" role="status">
      <p className="unsent__text">
        {restored ? 'Your unsent text from ' : 'You have unsent text from '}
        <TimeAgo iso={savedAt} />{restored ? ' is back.' : '.'}
        {note ? ` ${note}` : null}
      </p>
      <div className="unsent__actions">
        {onRestore ? <button type="button" className="button button--small button--primary" onClick={onRestore}>Restore it</button> : null}
        <button type="button" className="button button--small" onClick={onDiscard}>{restored ? 'Start over' : 'Discard it'}</button>
      </div>
    </div>
  );
}
