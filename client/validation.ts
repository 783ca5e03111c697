// Client checks of SPEC §5, run before a form is sent (the server checks again, with the same
// messages). Each returns the message per invalid field; an empty object means valid.

import {
  CURRENT_PASSWORD_REQUIRED_MESSAGE, EMAIL_MESSAGE, PASSWORD_REQUIRED_MESSAGE, PASSWORDS_DIFFER_MESSAGE,
  SAME_EMAIL_MESSAGE, SAME_PASSWORD_MESSAGE, bioProblem, isValidEmail, normalizeEmail, passwordProblem, usernameProblem,
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
  if (!fields.password) errors.password = PASSWORD_REQUIRED_MESSAGE;
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

export interface ResetPasswordFields {
  password: string;
  confirmPassword: string;
}

/** /reset-password: a new password by the register rules, typed twice. */
export function validateResetPassword(fields: ResetPasswordFields): Errors<ResetPasswordFields> {
  const errors: Errors<ResetPasswordFields> = {};
  const password = passwordProblem(fields.password);
  if (password) errors.password = password;
  if (fields.confirmPassword !== fields.password) errors.confirmPassword = PASSWORDS_DIFFER_MESSAGE;
  return errors;
}

/** /forgot-password: an address. */
export function forgotPasswordProblem(email: string): string | undefined {
  return checkEmail(email);
}

export interface PasswordChangeFields {
  current: string;
  next: string;
  confirm: string;
}

/** Settings, Password: the current one, a new one by the register rules, typed twice, and new. */
export function validatePasswordChange(fields: PasswordChangeFields): Errors<PasswordChangeFields> {
  const errors: Errors<PasswordChangeFields> = {};
  if (!fields.current) errors.current = CURRENT_PASSWORD_REQUIRED_MESSAGE;
  const next = passwordProblem(fields.next);
  if (next) errors.next = next;
  else if (fields.current && fields.next === fields.current) errors.next = SAME_PASSWORD_MESSAGE;
  if (fields.confirm !== fields.next) errors.confirm = PASSWORDS_DIFFER_MESSAGE;
  return errors;
}

export interface EmailChangeFields {
  email: string;
  password: string;
}

/** Settings, Email: a valid address that is not the current one, and the password. */
export function validateEmailChange(fields: EmailChangeFields, currentEmail: string): Errors<EmailChangeFields> {
  const errors: Errors<EmailChangeFields> = {};
  const email = checkEmail(fields.email);
  if (email) errors.email = email;
  else if (normalizeEmail(fields.email) === currentEmail) errors.email = SAME_EMAIL_MESSAGE;
  if (!fields.password) errors.password = PASSWORD_REQUIRED_MESSAGE;
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
