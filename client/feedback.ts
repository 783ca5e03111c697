// Turns a failed call into the toast SPEC §8 names: the server's detail when it sent one,
// otherwise the screen's fallback text ('Error logging in', 'Error creating account', ...).
// An action's error toast is keyed by that fallback text, so trying again replaces it instead of
// stacking a second one, and the action's success takes it away: once the mistake is fixed,
// no stale error stays on screen beside the success.
import toast from 'react-hot-toast';
import { ApiError, endExpiredSession } from './api.ts';

export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail ? error.detail : fallback;
}

export function toastApiError(error: unknown, fallback: string): void {
  toast.error(errorText(error, fallback), { id: fallback });
}

/** A fixed error text (SPEC §8, Fixed toasts), keyed by itself like the ones above. */
export function toastError(text: string): void {
  toast.error(text, { id: text });
}

/** The success of an action that failed before as `failedAs`: its error toast goes. */
export function toastSuccess(message: string, failedAs: string): void {
  toast.dismiss(failedAs);
  toast.success(message);
}

/**
 * A send of what someone wrote that failed: its toast and, when the session turned out to be over,
 * the way to sign in again and come back (the form offers the text it kept, DESIGN.md, Writing).
 * False: not sent.
 */
export function sendFailed(error: unknown, fallback: string): false {
  toastApiError(error, fallback);
  if (error instanceof ApiError && error.status === 401) endExpiredSession();
  return false;
}
