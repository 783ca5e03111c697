// Settings → Email's columns on users (migrations/0017_mail_accounts.ts).
import type { DB, DigestChoice } from '../schema.ts';

export interface PreferenceColumns {
  mail_comments: number;
  mail_followers: number;
  mail_mentions: number;
  mail_digest: DigestChoice;
}

export function findPreferences(db: DB, userId: number): Promise<PreferenceColumns | undefined> {
  return db.selectFrom('users').select(['mail_comments', 'mail_followers', 'mail_mentions', 'mail_digest'])
    .where('id', '=', userId).executeTakeFirst();
}

export async function updatePreferences(db: DB, userId: number, changes: Partial<PreferenceColumns>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}
