// The SQL of the federation's own reads and writes (migrations/0022_federation.ts): the local
// actors and articles it serves, their keys, their followers elsewhere.
import { dialectOf } from '../db.ts';
import { postgresIdCounters } from '../postgres/postgres.export.ts';
import type { DB, UserRow } from '../schema.ts';
import { sqliteIdCounters } from '../sqlite/sqlite.export.ts';

/** A local account as an actor: never a pending one (nobody's to see but the admins'). */
export function findActorUser(db: DB, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('pending', '=', 0).executeTakeFirst();
}

export async function findUserIdByUsernameKey(db: DB, key: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('id').where('username_key', '=', key).where('pending', '=', 0).executeTakeFirst();
  return row?.id;
}

export interface StoredKeys {
  rsa_public: string;
  rsa_private: string;
  ed25519_public: string;
  ed25519_private: string;
}

export function findKeys(db: DB, userId: number): Promise<StoredKeys | undefined> {
  return db.selectFrom('federation_keys').select(['rsa_public', 'rsa_private', 'ed25519_public', 'ed25519_private'])
    .where('user_id', '=', userId).executeTakeFirst();
}

/** Stores a user's first keys; of two requests making them at once, the first one's stay. */
export async function insertKeys(db: DB, userId: number, keys: StoredKeys, at: string): Promise<void> {
  await db.insertInto('federation_keys').values({ user_id: userId, ...keys, created_at: at })
    .onConflict((oc) => oc.column('user_id').doNothing()).execute();
}

/** An article as the fediverse sees it: active and published, with its author's name. */
export interface FederatedPostRow {
  id: number;
  author_id: number;
  title: string;
  content_html: string;
  image: string | null;
  image_alt: string;
  hashtags: string;
  comments_count: number;
  created_at: string;
  updated_at: string;
}

export function findFederatedPost(db: DB, id: number): Promise<FederatedPostRow | undefined> {
  return db.selectFrom('posts')
    .select(['id', 'author_id', 'title', 'content_html', 'image', 'image_alt', 'hashtags', 'comments_count', 'created_at', 'updated_at'])
    .where('id', '=', id).where('archived', '=', 0).where('status', '=', 'published')
    .executeTakeFirst();
}

/** A local user's comment on an active article, as the fediverse sees it (a Note a reply may answer). */
export interface FederatedCommentRow {
  id: number;
  post_id: number;
  author_id: number;
  content_html: string;
  created_at: string;
  updated_at: string;
}

export async function findFederatedComment(db: DB, id: number): Promise<FederatedCommentRow | undefined> {
  const row = await db.selectFrom('comments').innerJoin('posts', 'posts.id', 'comments.post_id')
    .select(['comments.id', 'comments.post_id', 'comments.author_id', 'comments.content_html', 'comments.created_at', 'comments.updated_at'])
    .where('comments.id', '=', id).where('comments.author_id', 'is not', null)
    .where('posts.archived', '=', 0).where('posts.status', '=', 'published')
    .executeTakeFirst();
  return row && row.author_id !== null ? { ...row, author_id: row.author_id } : undefined;
}

/**
 * Whether a post with this id is, or was, there (ids are never reused): a gone one is a Tombstone.
 * The last id given is the table's counter, not its largest row: the newest article deleted too.
 */
export async function postIdWasGiven(db: DB, id: number): Promise<boolean> {
  const counters = dialectOf(db) === 'postgres' ? await postgresIdCounters(db, ['posts']) : await sqliteIdCounters(db);
  return id <= (counters.get('posts') ?? 0);
}

/** A page of an author's articles, newest first, for their outbox. */
export function listAuthorPosts(db: DB, authorId: number, page: { before?: string; limit: number }): Promise<FederatedPostRow[]> {
  let query = db.selectFrom('posts')
    .select(['id', 'author_id', 'title', 'content_html', 'image', 'image_alt', 'hashtags', 'comments_count', 'created_at', 'updated_at'])
    .where('author_id', '=', authorId).where('archived', '=', 0).where('status', '=', 'published');
  if (page.before) query = query.where('created_at', '<', page.before);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}

/** Where a local user's followers elsewhere get deliveries. */
export interface FollowerInbox {
  uri: string;
  inbox: string;
  shared_inbox: string | null;
  created_at: string;
  actor_id: number;
}

/**
 * A page of a user's remote followers, oldest first, after `after` (the last one's created_at
 * and actor id: two follows may share a millisecond, and one at a page's end must not be skipped).
 */
export function listRemoteFollowerInboxes(
  db: DB, userId: number, page: { after?: { createdAt: string; actorId: number }; limit: number },
): Promise<FollowerInbox[]> {
  let query = db.selectFrom('remote_followers as f').innerJoin('remote_actors as a', 'a.id', 'f.actor_id')
    .select(['a.uri', 'a.inbox', 'a.shared_inbox', 'f.created_at', 'f.actor_id'])
    .where('f.user_id', '=', userId);
  const after = page.after;
  if (after) {
    query = query.where((eb) => eb.or([
      eb('f.created_at', '>', after.createdAt),
      eb.and([eb('f.created_at', '=', after.createdAt), eb('f.actor_id', '>', after.actorId)]),
    ]));
  }
  return query.orderBy('f.created_at').orderBy('f.actor_id').limit(page.limit).execute();
}

export async function countRemoteFollowers(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('remote_followers_count').where('id', '=', userId).executeTakeFirst();
  return row?.remote_followers_count ?? 0;
}

/** NodeInfo's usage: accounts (not pending), those signed in within a month and half a year, local articles. */
export async function countUsage(db: DB, monthAgo: string, halfYearAgo: string): Promise<{ users: number; activeMonth: number; activeHalfyear: number; posts: number }> {
  const users = await db.selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('last_login', '>=', monthAgo).then(1).else(0).end()).as('month'),
      eb.fn.sum<number>(eb.case().when('last_login', '>=', halfYearAgo).then(1).else(0).end()).as('half'),
    ])
    .where('pending', '=', 0).executeTakeFirstOrThrow();
  const posts = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('archived', '=', 0).where('status', '=', 'published').executeTakeFirstOrThrow();
  return { users: Number(users.total), activeMonth: Number(users.month ?? 0), activeHalfyear: Number(users.half ?? 0), posts: Number(posts.n) };
}

export function findRemoteActorByUri(db: DB, uri: string) {
  return db.selectFrom('remote_actors').selectAll().where('uri', '=', uri).executeTakeFirst();
}

/** How many deliveries the Fediverse tab keeps: the latest, older ones deleted as new ones come. */
export const DELIVERIES_KEPT = 500;

export async function insertDelivery(db: DB, row: { at: string; inbox: string; domain: string; activity_type: string; activity_id: string | null; ok: number; error: string | null }): Promise<void> {
  const { id } = await db.insertInto('federation_deliveries').values(row).returning('id').executeTakeFirstOrThrow();
  // Every hundredth delivery sweeps: the table stays near its size without a delete per insert.
  if (id % 100 === 0) await db.deleteFrom('federation_deliveries').where('id', '<=', id - DELIVERIES_KEPT).execute();
}
