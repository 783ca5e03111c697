// Edit profile checks (SPEC §5) and the "only changed fields" rule (SPEC §3), pure for unit tests.
import { BIO_MAX, USERNAME_MIN } from '../../validation.ts';

export const USERNAME_MAX = 35;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export { BIO_MAX };

export interface ProfileFields {
  username: string;
  bio: string;
}

export type ProfileErrors = Partial<Record<keyof ProfileFields | 'form', string>>;

/** What to send: only the fields that changed (trimmed), or a message when nothing did or a field is invalid. */
export function profileChanges(
  before: ProfileFields, after: ProfileFields, avatarPicked: boolean,
): { changes: Partial<ProfileFields>; errors: ProfileErrors } {
  const errors: ProfileErrors = {};
  const username = after.username.trim();
  const bio = after.bio.trim();
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
    errors.username = 'Username must be between 3 and 35 characters';
  }
  if (bio.length > BIO_MAX) errors.bio = 'Biography cannot exceed 500 characters';
  const changes: Partial<ProfileFields> = {};
  if (username !== before.username) changes.username = username;
  if (bio !== before.bio.trim()) changes.bio = bio;
  if (!errors.username && !errors.bio && Object.keys(changes).length === 0 && !avatarPicked) {
    errors.form = 'No changes have been made';
  }
  return { changes, errors };
}
