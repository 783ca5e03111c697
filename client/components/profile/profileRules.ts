// Edit profile checks (SPEC §5) and the "only changed fields" rule (SPEC §3), pure for unit tests.
import { hasUsernameCharacters, USERNAME_CHARACTERS_MESSAGE } from '../../../shared/accounts.ts';
import { normalizeLine, normalizeText } from '../../../shared/text.ts';
import { BIO_MAX, USERNAME_MIN } from '../../validation.ts';

export const USERNAME_MAX = 35;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export { BIO_MAX };

export interface ProfileFields {
  username: string;
  bio: string;
}

export type ProfileErrors = Partial<Record<keyof ProfileFields | 'form', string>>;

/**
 * What to send: only the fields that changed (cleaned as the server cleans them), or a message
 * when nothing did or a field is invalid. A name kept as it was is not checked again: names
 * chosen before the ASCII rule keep working.
 */
export function profileChanges(
  before: ProfileFields, after: ProfileFields, avatarPicked: boolean,
): { changes: Partial<ProfileFields>; errors: ProfileErrors } {
  const errors: ProfileErrors = {};
  const username = normalizeLine(after.username);
  const bio = normalizeText(after.bio);
  if (username !== before.username) {
    if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
      errors.username = 'Username must be between 3 and 35 characters';
    } else if (!hasUsernameCharacters(username)) {
      errors.username = USERNAME_CHARACTERS_MESSAGE;
    }
  }
  if (bio.length > BIO_MAX) errors.bio = 'Biography cannot exceed 500 characters';
  const changes: Partial<ProfileFields> = {};
  if (username !== before.username) changes.username = username;
  if (bio !== normalizeText(before.bio)) changes.bio = bio;
  if (!errors.username && !errors.bio && Object.keys(changes).length === 0 && !avatarPicked) {
    errors.form = 'No changes have been made';
  }
  return { changes, errors };
}
