// What makes a username and an email acceptable, and their case-insensitive keys.

/** Letters and digits of any script, plus . _ and -: safe in a URL path segment. */
const USERNAME_PATTERN = /^[\p{L}\p{N}._-]+$/u;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 35;
export const BIO_MAX = 500;
export const EMAIL_MAX = 254;

export const USERNAME_CHARACTERS_MESSAGE =
  'Username can only contain letters, numbers, dots, hyphens and underscores';

export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

export function hasUsernameCharacters(username: string): boolean {
  return USERNAME_PATTERN.test(username) && username !== '.' && username !== '..';
}

/** Emails are the login and compared case-insensitively, so they are stored lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX && EMAIL_PATTERN.test(email);
}
