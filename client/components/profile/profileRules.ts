// Edit profile checks (SPEC §5) and the "only changed fields" rule (SPEC §3), pure for unit tests.
import { NO_CHANGES_MESSAGE, bioProblem, usernameProblem } from '../../../shared/accounts.ts';
import { normalizeLine, normalizeText } from '../../../shared/text.ts';

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
  const usernameError = username !== before.username ? usernameProblem(username, 'profile') : undefined;
  if (usernameError) errors.username = usernameError;
  const bioError = bioProblem(bio);
  if (bioError) errors.bio = bioError;
  const changes: Partial<ProfileFields> = {};
  if (username !== before.username) changes.username = username;
  if (bio !== normalizeText(before.bio)) changes.bio = bio;
  if (!errors.username && !errors.bio && Object.keys(changes).length === 0 && !avatarPicked) {
    errors.form = NO_CHANGES_MESSAGE;
  }
  return { changes, errors };
}
