// Turns a failed call into the toast SPEC §8 names: the server's detail when it sent one,
// otherwise the screen's fallback text ('Error logging in', 'Error creating account', ...).
import toast from 'react-hot-toast';
import { ApiError } from './api.ts';

export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail ? error.detail : fallback;
}

export function toastApiError(error: unknown, fallback: string): void {
  toast.error(errorText(error, fallback));
}
