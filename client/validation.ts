// Client checks of SPEC §5, run before a form is sent (the server checks again, with the same
// messages). Each returns the message per invalid field; an empty object means valid.

export const BIO_MAX = 500;
export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 6;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  const value = email.trim();
  if (!value) return 'Please enter your email';
  if (!EMAIL.test(value)) return 'Please enter a valid email address';
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
  if (fields.username.trim().length < USERNAME_MIN) errors.username = 'Username must be at least 3 characters long';
  const email = checkEmail(fields.email);
  if (email) errors.email = email;
  if (fields.password.length < PASSWORD_MIN) errors.password = 'Password must be at least 6 characters long';
  if (fields.confirmPassword !== fields.password) errors.confirmPassword = 'Passwords do not match';
  if (fields.bio.length > BIO_MAX) errors.bio = 'Biography cannot exceed 500 characters';
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
