// A username's keys: the case-insensitive one that finds a user, and the look-alike one that
// decides whether a new name is taken. What a name or an email may contain is shared with the
// client (shared/accounts.ts); what the server uses of it is re-exported here.
export {
  EMAIL_MESSAGE, NO_CHANGES_MESSAGE, PASSWORD_MAX, PASSWORDS_DIFFER_MESSAGE, USERNAME_LENGTH_MESSAGE,
  bioProblem, isValidEmail, normalizeEmail, passwordProblem, usernameProblem,
} from '../../shared/accounts.ts';

/** Finds a user by name whatever its case: `/beatnik/Ana` and `/beatnik/ana` are one page. */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

/**
 * Two names with one skeleton look alike: they differ only by case or by `.`, `-` and `_`
 * (`john.doe`, `John_Doe`, `johndoe`). A new name whose skeleton is taken is refused.
 * users.repo.ts computes the same expression in SQL over username_key, backed by an index.
 */
export function usernameSkeleton(username: string): string {
  return usernameKey(username).replace(/[._-]/g, '');
}
