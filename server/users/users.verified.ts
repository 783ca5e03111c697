// The gate of DESIGN.md, Mail: while a user's address has not answered its link, they read,
// follow and edit their profile, but publishing, commenting and rating wait. Only when mail is on
// and EMAIL_VERIFICATION is: without mail there is no link to answer.
import { VERIFY_EMAIL_FIRST_MESSAGE } from '../../shared/accounts.ts';
import type { Config } from '../config.ts';
import { forbidden } from '../errors.ts';
import type { UserRow } from '../schema.ts';

export function requireVerifiedEmail(config: Config, user: Pick<UserRow, 'email_verified'>): void {
  if (config.mail?.verifyAddresses && user.email_verified !== 1) throw forbidden(VERIFY_EMAIL_FIRST_MESSAGE);
}
