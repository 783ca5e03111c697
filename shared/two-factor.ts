// Two-factor sign-in (DESIGN.md, Running a community): the words and shapes both sides use.

export const INVALID_TWO_FACTOR_CODE = 'Invalid two-factor code.';
export const ADMIN_NEEDS_TWO_FACTOR = 'Set up two-factor authentication to use admin tools.';
export const TWO_FACTOR_CHALLENGE_EXPIRED = 'Your sign-in has expired. Please log in again.';
export const TWO_FACTOR_CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app, or a recovery code.';
export const TWO_FACTOR_ALREADY_ON = 'Two-factor authentication is already on.';
export const TWO_FACTOR_NOT_ON = 'Two-factor authentication is not on.';
export const TWO_FACTOR_SETUP_FIRST = 'Start the set-up again: no set-up is waiting for a code.';
export const TWO_FACTOR_ON_MESSAGE = 'Two-factor authentication is on.';
export const TWO_FACTOR_OFF_MESSAGE = 'Two-factor authentication is off.';

/** How many single-use recovery codes turning it on gives. */
export const RECOVERY_CODE_COUNT = 10;

/** A TOTP code as typed: six digits, spaces allowed between them ("123 456"). */
export function totpDigits(typed: string): string | undefined {
  const digits = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}
