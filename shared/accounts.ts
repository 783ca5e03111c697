// What makes a username and an email acceptable (DESIGN.md, Accounts and Edges), for the server's
// checks and the client's alike.

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 35;
export const EMAIL_MAX = 254;

export const USERNAME_CHARACTERS_MESSAGE =
  'Username can only contain letters, numbers, dots, hyphens and underscores';
export const EMAIL_MESSAGE = 'Please enter a valid email address';

/**
 * Names chosen from now on: ASCII letters, digits, `.`, `_` and `-`, starting and ending with a
 * letter or digit. ASCII only, so no name can pass for another in a different script (Cyrillic
 * `а` for Latin `a`); names chosen before this rule keep working.
 */
const USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** One `@`, no spaces, controls or invisible characters, a dot in the domain. */
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@.\p{Cc}\p{Cf}]+(?:\.[^\s@.\p{Cc}\p{Cf}]+)+$/u;

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
