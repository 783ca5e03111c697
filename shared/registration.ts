// Who may join, and what a new account may do at first (DESIGN.md, Running a community):
// the sentences and bounds the server answers with and the register page and admin tabs show.

export const REGISTRATION_CLOSED_MESSAGE = 'Registration is closed.';
export const INVITATION_ONLY_MESSAGE = 'Registration is by invitation only.';
export const AWAITING_APPROVAL_MESSAGE = 'Your account is waiting for approval.';
/** The register page's answer to a pending account: what happens next. */
export const PENDING_REGISTRATION_MESSAGE =
  'Thanks for signing up! An administrator will review your account soon. You can log in once it is approved.';
export const PENDING_REGISTRATION_MAIL_NOTE = 'We will email you when it is.';

export const PENDING_NOT_FOUND = 'No account is waiting with that id';
export const INVITE_NOT_FOUND = 'Invitation not found';
export const REJECTION_REASON_MAX = 500;
export const REJECTION_REASON_LENGTH_MESSAGE = `The reason cannot exceed ${REJECTION_REASON_MAX} characters`;

/** An invitation is good for 1 registration and 7 days unless the admin says otherwise. */
export const INVITE_DEFAULT_USES = 1;
export const INVITE_MAX_USES = 100;
export const INVITE_DEFAULT_DAYS = 7;
export const INVITE_MAX_DAYS = 90;
export const INVITE_USES_MESSAGE = `Uses must be a whole number from 1 to ${INVITE_MAX_USES}`;
export const INVITE_DAYS_MESSAGE = `Days must be a whole number from 1 to ${INVITE_MAX_DAYS}`;

/** The first day of an account: at most this many articles and comments an hour. */
export const NEW_ACCOUNT_HOURS = 24;
export const NEW_ACCOUNT_ARTICLES_AN_HOUR = 2;
export const NEW_ACCOUNT_COMMENTS_AN_HOUR = 10;

export function newAccountBrakeMessage(what: 'articles' | 'comments', limit: number, waitMs: number): string {
  const verb = what === 'articles' ? 'publish' : 'post';
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `New accounts can ${verb} ${limit} ${what} an hour. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
