// Settings → Email (DESIGN.md, Mail): which notification mail a user wants. Comments on their
// articles and mentions of them are on by default, new followers and the weekly digest off.
import { NO_CHANGES_MESSAGE } from '../../shared/accounts.ts';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import type { DigestChoice as Digest } from '../schema.ts';
import { findPreferences, updatePreferences, type PreferenceColumns } from './mail-notices.repo.ts';

export interface EmailPreferences {
  comments: boolean;
  followers: boolean;
  mentions: boolean;
  digest: Digest;
}

const SWITCHES = { comments: 'mail_comments', followers: 'mail_followers', mentions: 'mail_mentions' } as const;
const DIGESTS: readonly Digest[] = ['off', 'weekly'];

/** The choices as the API shows them, from the user's row. */
export function toPreferences(row: PreferenceColumns): EmailPreferences {
  return { comments: row.mail_comments === 1, followers: row.mail_followers === 1, mentions: row.mail_mentions === 1, digest: row.mail_digest };
}

export async function emailPreferences(ctx: AppContext, userId: number): Promise<EmailPreferences> {
  const row = await findPreferences(ctx.db, userId);
  if (!row) throw notFound('User not found');
  return toPreferences(row);
}

/** PUT /api/users/me/email-preferences: any of the four; the others stay as they were. */
export async function setEmailPreferences(ctx: AppContext, userId: number, body: Body): Promise<EmailPreferences> {
  const changes: Partial<PreferenceColumns> = {};
  for (const [field, column] of Object.entries(SWITCHES)) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
    changes[column] = value ? 1 : 0;
  }
  if (body.digest !== undefined) {
    if (!DIGESTS.includes(body.digest as Digest)) throw badRequest('digest must be "off" or "weekly"');
    changes.mail_digest = body.digest as Digest;
  }
  if (Object.keys(changes).length === 0) throw badRequest(NO_CHANGES_MESSAGE);
  await updatePreferences(ctx.db, userId, changes);
  return emailPreferences(ctx, userId);
}
