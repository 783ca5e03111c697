// The server's word on one field of a settings form: a wrong password comes back as a 403 whose
// detail belongs beside the password field, not only in a toast.
import { ApiError } from '../../api.ts';

export function serverFieldError(error: unknown, status: number): string | undefined {
  return error instanceof ApiError && error.status === status ? error.detail : undefined;
}
