// The reads the outgoing queue makes inside the act's transaction (migrations/0022_federation.ts):
// whether anybody elsewhere follows an author, and, when an account goes, what its last
// deliveries need once its rows are gone.
import type { DB } from '../schema.ts';

/** users.remote_followers_count: one read by primary key, on the publishing path. */
export async function findRemoteFollowersCount(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('remote_followers_count').where('id', '=', userId).executeTakeFirst();
  return row?.remote_followers_count ?? 0;
}

/** The account's signing keys as stored (JWK). */
export function findSigningKeys(db: DB, userId: number) {
  return db.selectFrom('federation_keys').select(['rsa_private', 'ed25519_private']).where('user_id', '=', userId).executeTakeFirst();
}

/** Every remote follower of the account: where each gets deliveries. */
export function listFollowerInboxes(db: DB, userId: number) {
  return db.selectFrom('remote_followers as f').innerJoin('remote_actors as a', 'a.id', 'f.actor_id')
    .select(['a.uri', 'a.inbox', 'a.shared_inbox'])
    .where('f.user_id', '=', userId).orderBy('f.created_at').orderBy('f.actor_id').execute();
}

/** The account's articles the fediverse has: published and not archived. */
export async function listFederatedPostIds(db: DB, authorId: number): Promise<number[]> {
  const rows = await db.selectFrom('posts').select('id')
    .where('author_id', '=', authorId).where('archived', '=', 0).where('status', '=', 'published').orderBy('id').execute();
  return rows.map((row) => row.id);
}
