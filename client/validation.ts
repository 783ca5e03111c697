// Client checks of SPEC §5, run before a form is sent (the server checks again, with the same
// messages). Each returns the message per invalid field; an empty object means valid.

import {
  EMAIL_MESSAGE, USERNAME_CHARACTERS_MESSAGE, USERNAME_MAX, USERNAME_MIN, hasUsernameCharacters,
  isValidEmail, normalizeEmail,
} from '../shared/accounts.ts';
import { lineLength, normalizeLine, textLength } from '../shared/text.ts';

export { USERNAME_MIN };
export const BIO_MAX = 500;
export const PASSWORD_MIN = 6;

export interface LoginFields {
  email: string;
  password: string;
}

export interface RegisterFields extends LoginFields {
  username: string;
  confirmPassword: string;
  bio: string;
}

export type Errors<F> = Partial<Record<keyof F, string>>;

function checkEmail(email: string): string | undefined {
  const value = normalizeEmail(email);
  if (!value) return 'Please enter your email';
  if (!isValidEmail(value)) return EMAIL_MESSAGE;
  return undefined;
}

export function validateLogin(fields: LoginFields): Errors<LoginFields> {
  const errors: Errors<LoginFields> = {};
  const email = checkEmail(fields.email);
  if (email) errors.email = email;
  if (!fields.password) errors.password = 'Please enter your password';
  return errors;
}

export function validateRegister(fields: RegisterFields): Errors<RegisterFields> {
  const errors: Errors<RegisterFields> = {};
  const username = lineLength(fields.username);
  if (username < USERNAME_MIN) errors.username = 'Username must be at least 3 characters long';
  else if (username > USERNAME_MAX) errors.username = 'Username must be between 3 and 35 characters';
  else if (!hasUsernameCharacters(normalizeLine(fields.username))) errors.username = USERNAME_CHARACTERS_MESSAGE;
  const email = checkEmail(fields.email);
  if (email) errors.email = email;
  if (fields.password.length < PASSWORD_MIN) errors.password = 'Password must be at least 6 characters long';
  if (fields.confirmPassword !== fields.password) errors.confirmPassword = 'Passwords do not match';
  if (textLength(fields.bio) > BIO_MAX) errors.bio = 'Biography cannot exceed 500 characters';
  return errors;
}

/** The first invalid field in form order, to move the focus there. */
export function firstInvalid<F>(order: (keyof F)[], errors: Errors<F>): keyof F | undefined {
  return order.find((field) => errors[field] !== undefined);
}

/** An article image (5 MB) or an avatar (2 MB) picked in a form (SPEC §5). */
export function checkImageFile(file: { type: string; size: number }, maxBytes: number): string | undefined {
  if (!file.type.startsWith('image/')) return 'Please select a valid image file';
  if (file.size > maxBytes) return `Image cannot exceed ${Math.round(maxBytes / (1024 * 1024))}MB`;
  return undefined;
}
