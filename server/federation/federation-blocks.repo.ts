// The SQL of the blocks an admin sets (federation_blocks, migrations/0022_federation.ts) and of
// what a block takes away: the blocked actors' follows of local users and their likes and boosts,
// each with the counter it moved (users.remote_followers_count, posts.likes_count, boosts_count).
import { sql } from 'kysely';
import type { Page } from '../http.ts';
import type { DB } from '../schema.ts';

export interface BlockRow {
  target: string;
  created_at: string;
  /** The admin's username; null for the CLI's or a deleted account's. */
  created_by: string | null;
}

function selectBlocks(db: DB) {
  return db.selectFrom('federation_blocks as b').leftJoin('users as u', 'u.id', 'b.created_by')
    .select(['b.target', 'b.created_at', 'u.username as created_by']);
}

/** Adds the block; false when it was there already (then nothing changes). */
export async function insertBlock(trx: DB, target: string, adminId: number | null, at: string): Promise<boolean> {
  const result = await trx.insertInto('federation_blocks').values({ target, created_by: adminId, created_at: at })
    .onConflict((oc) => oc.column('target').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Lifts the block; false when there was none. */
export async function deleteBlock(trx: DB, target: string): Promise<boolean> {
  const result = await trx.deleteFrom('federation_blocks').where('target', '=', target).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function findBlock(db: DB, target: string): Promise<BlockRow | undefined> {
  return selectBlocks(db).where('b.target', '=', target).executeTakeFirst();
}

/** In the order of their targets (the primary key's). */
export function listBlocks(db: DB, page: Page): Promise<BlockRow[]> {
  return selectBlocks(db).orderBy('b.target').limit(page.limit).offset(page.skip).execute();
}

export async function countBlocks(db: DB): Promise<number> {
  const row = await db.selectFrom('federation_blocks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which of the targets are blocked: one look-up by the primary key. */
export async function findBlockedTargets(db: DB, targets: readonly string[]): Promise<string[]> {
  if (targets.length === 0) return [];
  const rows = await db.selectFrom('federation_blocks').select('target').where('target', 'in', targets).execute();
  return rows.map((row) => row.target);
}

/** Every account blocked (`@user@host`: the targets between '@' and 'A'), a short range of the key. */
export async function listAccountBlocks(db: DB): Promise<string[]> {
  const rows = await db.selectFrom('federation_blocks').select('target').where('target', '>=', '@').where('target', '<', 'A').execute();
  return rows.map((row) => row.target);
}

/** The handles (user@domain) of the actors among these ids Beatnik has met. */
export function findActorHandles(db: DB, uris: readonly string[]): Promise<Array<{ uri: string; handle: string }>> {
  if (uris.length === 0) return Promise.resolve([]);
  return db.selectFrom('remote_actors').select(['uri', 'handle']).where('uri', 'in', uris).execute();
}

export interface ActorAddress {
  id: number;
  uri: string;
  handle: string;
  domain: string;
}

/**
 * The actors whose handle's domain or id mentions `host`, for a server's block to pick those it
 * covers (subdomains and ports among them). A search of every actor, as a "contains" match is: an
 * admin's rare act, never a request's.
 */
export function listActorsMentioning(db: DB, host: string): Promise<ActorAddress[]> {
  const pattern = `%${host}%`;
  return db.selectFrom('remote_actors').select(['id', 'uri', 'handle', 'domain'])
    .where((eb) => eb.or([eb('domain', 'like', pattern), eb(eb.fn('lower', ['uri']), 'like', pattern)]))
    .execute();
}

/** The actors whose handle is on `domain` (an account's block picks its own among them). */
export function listActorsOfDomain(db: DB, domain: string): Promise<ActorAddress[]> {
  return db.selectFrom('remote_actors').select(['id', 'uri', 'handle', 'domain']).where('domain', '=', domain).execute();
}

/** Removes the actors' follows of local users, each user's count with them; how many there were. */
export async function deleteRemoteFollows(trx: DB, actorIds: readonly number[]): Promise<number> {
  const perUser = trx.selectFrom('remote_followers').select((eb) => ['user_id', eb.fn.countAll<number>().as('n')])
    .where('actor_id', 'in', actorIds).groupBy('user_id').as('gone');
  await trx.updateTable('users').from(perUser)
    .set({ remote_followers_count: sql`users.remote_followers_count - gone.n` })
    .whereRef('gone.user_id', '=', 'users.id').execute();
  const result = await trx.deleteFrom('remote_followers').where('actor_id', 'in', actorIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes the actors' likes and boosts, each article's counts with them; how many of each there were. */
export async function deleteReactions(trx: DB, actorIds: readonly number[]): Promise<{ likes: number; boosts: number }> {
  const likes = sql<number>`sum(CASE WHEN kind = 'like' THEN 1 ELSE 0 END)`;
  const boosts = sql<number>`sum(CASE WHEN kind = 'boost' THEN 1 ELSE 0 END)`;
  const perPost = trx.selectFrom('post_reactions').select(['post_id', likes.as('likes'), boosts.as('boosts')])
    .where('actor_id', 'in', actorIds).groupBy('post_id').as('gone');
  const total = await trx.selectFrom('post_reactions').select([likes.as('likes'), boosts.as('boosts')])
    .where('actor_id', 'in', actorIds).executeTakeFirstOrThrow();
  await trx.updateTable('posts').from(perPost)
    .set({ likes_count: sql`posts.likes_count - gone.likes`, boosts_count: sql`posts.boosts_count - gone.boosts` })
    .whereRef('gone.post_id', '=', 'posts.id').execute();
  await trx.deleteFrom('post_reactions').where('actor_id', 'in', actorIds).execute();
  return { likes: Number(total.likes ?? 0), boosts: Number(total.boosts ?? 0) };
}
