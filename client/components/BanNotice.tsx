// On /login: why the reader was signed out or refused — the ban's end, in the reader's own time
// zone and in words, and its reason (DESIGN.md, Edges: a banned user is told, not bounced).
import { humanDateTime } from '../format.ts';
import type { BanNotice as Notice } from '../state/session.ts';

export function BanNotice({ notice }: { notice: Notice }) {
  const { ban } = notice;
  return (
    <section className="ban-notice" role="alert" aria-labelledby="ban-notice-title">
      <h2 id="ban-notice-title" className="ban-notice__title">
        {notice.signedOut ? 'You have been signed out' : 'This account is banned'}
      </h2>
      {ban.permanent || !ban.until
        ? <p className="ban-notice__end">Your account has been permanently banned.</p>
        : (
          <p className="ban-notice__end">
            Your account is banned until <time dateTime={ban.until}>{humanDateTime(ban.until)}</time>.
          </p>
        )}
      {ban.reason ? <p className="ban-notice__reason"><strong>Reason:</strong> {ban.reason}</p> : null}
    </section>
  );
}
