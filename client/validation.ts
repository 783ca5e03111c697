// Client checks of SPEC §5, run before a form is sent (the server checks again, with the same
// messages). Each returns the message per invalid field; an empty object means valid.

import {
  EMAIL_MESSAGE, PASSWORDS_DIFFER_MESSAGE, bioProblem, isValidEmail, normalizeEmail, passwordProblem,
  usernameProblem,
} from '../shared/accounts.ts';
import { INVALID_IMAGE_MESSAGE, imageTooLargeMessage } from '../shared/images.ts';

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
  const username = usernameProblem(fields.username, 'register');
  if (username) errors.username = username;
  const email = checkEmail(fields.email);
  if (email) errors.email = email;
  const password = passwordProblem(fields.password);
  if (password) errors.password = password;
  if (fields.confirmPassword !== fields.password) errors.confirmPassword = PASSWORDS_DIFFER_MESSAGE;
  const bio = bioProblem(fields.bio);
  if (bio) errors.bio = bio;
  return errors;
}

/** The first invalid field in form order, to move the focus there. */
export function firstInvalid<F>(order: (keyof F)[], errors: Errors<F>): keyof F | undefined {
  return order.find((field) => errors[field] !== undefined);
}

/** An article image (5 MB) or an avatar (2 MB) picked in a form (SPEC §5). */
export function checkImageFile(file: { type: string; size: number }, maxBytes: number): string | undefined {
  if (!file.type.startsWith('image/')) return INVALID_IMAGE_MESSAGE;
  if (file.size > maxBytes) return imageTooLargeMessage(maxBytes);
  return undefined;
}
