// What makes a username and an email acceptable (DESIGN.md, Accounts and Edges), for the server's
// checks and the client's alike.

import { lineLength, normalizeLine, textLength } from './text.ts';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 35;
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 1000;
export const BIO_MAX = 500;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export const USERNAME_SHORT_MESSAGE = 'Username must be at least 3 characters long';
export const USERNAME_LENGTH_MESSAGE = 'Username must be between 3 and 35 characters';
export const USERNAME_CHARACTERS_MESSAGE =
  'Username can only contain letters, numbers, dots, hyphens and underscores';
export const EMAIL_MESSAGE = 'Please enter a valid email address';
export const PASSWORD_SHORT_MESSAGE = 'Password must be at least 6 characters long';
export const PASSWORD_LONG_MESSAGE = 'Password cannot exceed 1000 characters';
export const PASSWORDS_DIFFER_MESSAGE = 'Passwords do not match';
export const BIO_LENGTH_MESSAGE = 'Biography cannot exceed 500 characters';
export const NO_CHANGES_MESSAGE = 'No changes have been made';

// Settings (DESIGN.md, Accounts: settings): what the server answers and the page says.
export const PASSWORD_REQUIRED_MESSAGE = 'Please enter your password';
export const CURRENT_PASSWORD_REQUIRED_MESSAGE = 'Please enter your current password';
export const WRONG_PASSWORD_MESSAGE = 'Password is incorrect';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Current password is incorrect';
export const SAME_PASSWORD_MESSAGE = 'The new password must be different from the current one';
export const SAME_EMAIL_MESSAGE = 'This is already your email';
export const LAST_ADMIN_MESSAGE = 'The last administrator cannot delete their account. Make another user an admin first.';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';
export const EMAIL_CHANGED_MESSAGE = 'Email updated successfully';
export const SIGNED_OUT_EVERYWHERE_MESSAGE = 'Signed out on every device';

// Verified addresses (DESIGN.md, Mail).
export const VERIFY_EMAIL_FIRST_MESSAGE = 'Please verify your email address first.';
export const EMAIL_VERIFIED_MESSAGE = 'Your email address is verified.';
export const VERIFY_LINK_INVALID_MESSAGE = 'This verification link is invalid or has expired.';
export const VERIFICATION_SENT_MESSAGE = 'A new verification link is on its way.';
export const ALREADY_VERIFIED_MESSAGE = 'Your email address is already verified.';
export const ACCOUNT_DELETED_MESSAGE = 'Your account has been deleted';
/** SPEC §8's success toast of a logout. */
export const SESSION_CLOSED_MESSAGE = 'Session closed successfully';

/**
 * Names chosen from now on: ASCII letters, digits, `.`, `_` and `-`, starting and ending with a
 * letter or digit. ASCII only, so no name can pass for another in a different script (Cyrillic
 * `а` for Latin `a`); names chosen before this rule keep working.
 */
const USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/**
 * One `@`, no spaces, controls or invisible characters, a dot in the domain; and none of the
 * characters mail headers give a meaning to (`<>()[],;:"\`): `x<victim@example.org>` would
 * otherwise be an account whose mail goes to someone else's mailbox.
 */
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}<>()[\],;:"\\]+@[^\s@.\p{Cc}\p{Cf}<>()[\],;:"\\]+(?:\.[^\s@.\p{Cc}\p{Cf}<>()[\],;:"\\]+)+$/u;

export function hasUsernameCharacters(username: string): boolean {
  return USERNAME_PATTERN.test(username);
}

/** Emails are the login and compared case-insensitively, so they are stored lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX && EMAIL_PATTERN.test(email);
}

/**
 * A new name's problem: its length, then its characters. Registration says 'at least 3 characters long' of a short name (SPEC §5,
 * Register username); the profile form says 'between 3 and 35' of both ends (Profile username).
 */
export function usernameProblem(raw: string, form: 'register' | 'profile'): string | undefined {
  const length = lineLength(raw);
  if (length < USERNAME_MIN) return form === 'register' ? USERNAME_SHORT_MESSAGE : USERNAME_LENGTH_MESSAGE;
  if (length > USERNAME_MAX) return USERNAME_LENGTH_MESSAGE;
  if (!hasUsernameCharacters(normalizeLine(raw))) return USERNAME_CHARACTERS_MESSAGE;
  return undefined;
}

/** Passwords are never cleaned or trimmed: every character counts as typed. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return PASSWORD_SHORT_MESSAGE;
  if (password.length > PASSWORD_MAX) return PASSWORD_LONG_MESSAGE;
  return undefined;
}

export function bioProblem(raw: string): string | undefined {
  return textLength(raw) > BIO_MAX ? BIO_LENGTH_MESSAGE : undefined;
}

/** The file a data export is saved as: beatnik-ana-2026-11-21.json (the server names it, the page too). */
export function exportFileName(username: string, now = new Date()): string {
  return `beatnik-${username.replace(/[^A-Za-z0-9._-]/g, '_')}-${now.toISOString().slice(0, 10)}.json`;
}
