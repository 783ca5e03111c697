// Reading a profile edit (SPEC §5, Profile rows): only the fields that were sent, each checked.
import { badRequest, badRequestIf } from '../errors.ts';
import type { Body } from '../http.ts';
import { normalizeLine, normalizeText } from '../../shared/text.ts';
import { USERNAME_LENGTH_MESSAGE, bioProblem, usernameProblem } from './users.names.ts';

export interface ProfileInput {
  username?: string;
  bio?: string;
  removeAvatar: boolean;
}

/** A field the client left out (absent or JSON null) is not a change; anything else is checked. */
function sentText(body: Body, name: string, wrongTypeDetail: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(wrongTypeDetail);
  return value;
}

function flag(body: Body, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  throw badRequest(`${name} must be true or false`);
}

/**
 * The name sent is checked only when it differs from `currentUsername`: names chosen before the
 * ASCII rule keep working when their owner edits just the bio or the avatar.
 */
export function parseProfileInput(body: Body, currentUsername: string): ProfileInput {
  const sentUsername = sentText(body, 'username', USERNAME_LENGTH_MESSAGE);
  const username = sentUsername === undefined ? undefined : normalizeLine(sentUsername);
  if (username !== undefined && username !== currentUsername) badRequestIf(usernameProblem(username, 'profile'));
  const sentBio = sentText(body, 'bio', 'Biography must be text');
  const bio = sentBio === undefined ? undefined : normalizeText(sentBio);
  if (bio !== undefined) badRequestIf(bioProblem(bio));
  return { username, bio, removeAvatar: flag(body, 'remove_avatar') };
}
