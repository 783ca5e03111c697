// SQL for comments, always with their author's current name and avatar: a local user's, or for a
// reply from the fediverse its remote actor's (migrations/0022_federation.ts).
import { sql } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { CommentRow, DB } from '../schema.ts';

export type CommentListRow = CommentRow & {
  author_username: string | null;
  author_avatar: string | null;
  /** user@domain of a remote author; null for a local comment. */
  remote_handle: string | null;
  remote_name: string | null;
  remote_url: string | null;
  remote_avatar: string | null;
};

function selectComments(db: DB) {
  return db.selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.author_id')
    .leftJoin('remote_actors', 'remote_actors.id', 'comments.remote_actor_id')
    .selectAll('comments')
    .select([
      'users.username as author_username', 'users.avatar as author_avatar',
      'remote_actors.handle as remote_handle', 'remote_actors.name as remote_name',
      sql<string | null>`coalesce(remote_actors.url, remote_actors.uri)`.as('remote_url'), 'remote_actors.avatar_url as remote_avatar',
    ]);
}

export function findCommentById(db: DB, id: number): Promise<CommentListRow | undefined> {
  return selectComments(db).where('comments.id', '=', id).executeTakeFirst();
}

/** Oldest first: a conversation reads top to bottom and new comments are appended. */
export function listComments(db: DB, postId: number, page: { skip: number; limit: number }): Promise<CommentListRow[]> {
  return selectComments(db).where('comments.post_id', '=', postId)
    .orderBy('comments.created_at', 'asc').orderBy('comments.id', 'asc')
    .limit(page.limit).offset(page.skip).execute();
}

type NewComment = Omit<CommentRow, 'id' | 'author_id' | 'remote_actor_id' | 'remote_uri'> & { author_id: number };

const insert = preparedQuery((db, p: NewComment) =>
  db.insertInto('comments').values({
    post_id: p.post_id, author_id: p.author_id, content: p.content, content_html: p.content_html,
    created_at: p.created_at, updated_at: p.updated_at,
  }).returning('id'));

export async function insertComment(trx: DB, values: NewComment): Promise<number> {
  return (await insert.first(trx, values))!.id;
}

export async function updateCommentContent(db: DB, id: number, content: string, contentHtml: string, at: string): Promise<void> {
  await db.updateTable('comments').set({ content, content_html: contentHtml, updated_at: at }).where('id', '=', id).execute();
}

/** Deletes the comment; false when it was already gone. */
export async function deleteCommentRow(trx: DB, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const countOnActivePost = preparedQuery((db, p: { postId: number }) =>
  db.updateTable('posts').set({ comments_count: sql`comments_count + 1` })
    .where('id', '=', p.postId).where('archived', '=', 0).where('status', '=', 'published')
    .returning(['author_id', 'title']));

/** Counts a new comment on a listed article (active, published); returns its author and title, or undefined if none is. */
export function countNewComment(trx: DB, postId: number): Promise<{ author_id: number; title: string } | undefined> {
  return countOnActivePost.first(trx, { postId });
}

const addToPostComments = preparedQuery((db, p: { postId: number; delta: number }) =>
  db.updateTable('posts').set({ comments_count: sql`comments_count + ${p.delta}` }).where('id', '=', p.postId));

export async function adjustPostComments(trx: DB, postId: number, delta: 1 | -1): Promise<void> {
  await addToPostComments.changed(trx, { postId, delta });
}

/** Per author of a listed article (published, active), how many comments the user left there (their own articles aside). */
export async function countCommentsByUserPerAuthor(trx: DB, userId: number): Promise<Array<{ author_id: number; n: number }>> {
  const rows = await trx.selectFrom('comments').innerJoin('posts', 'posts.id', 'comments.post_id')
    .select((eb) => ['posts.author_id', eb.fn.countAll<number>().as('n')])
    .where('comments.author_id', '=', userId).where('posts.archived', '=', 0).where('posts.status', '=', 'published')
    .where('posts.author_id', '!=', userId)
    .groupBy('posts.author_id').execute();
  return rows.map((row) => ({ author_id: row.author_id, n: Number(row.n) }));
}

/** Takes the user's comments out of each article's count, in one statement. */
export async function subtractCommentsByUser(trx: DB, userId: number): Promise<void> {
  const perPost = trx.selectFrom('comments').select((eb) => ['post_id', eb.fn.countAll<number>().as('n')])
    .where('author_id', '=', userId).groupBy('post_id').as('mine');
  await trx.updateTable('posts').from(perPost)
    .set({ comments_count: sql`posts.comments_count - mine.n` })
    .whereRef('mine.post_id', '=', 'posts.id').execute();
}

export async function deleteCommentsByUser(trx: DB, userId: number): Promise<void> {
  await trx.deleteFrom('comments').where('author_id', '=', userId).execute();
}

/** Every comment the user wrote, oldest first, with its article's title (their data export). */
export function listCommentsByUser(db: DB, userId: number) {
  return db.selectFrom('comments').innerJoin('posts', 'posts.id', 'comments.post_id')
    .select(['comments.id', 'comments.post_id', 'posts.title as post_title', 'comments.content',
      'comments.created_at', 'comments.updated_at'])
    .where('comments.author_id', '=', userId)
    .orderBy('comments.created_at', 'asc').orderBy('comments.id', 'asc').execute();
}

// Replies from the fediverse (comments.remote.service.ts): found by their Note's id, written by a
// remote actor; comments_remote_uri and comments_remote_actor index them.

export interface RemoteCommentRow {
  id: number;
  post_id: number;
  remote_actor_id: number;
  content: string;
  content_html: string;
}

/** A reply from the fediverse by its Note's id. */
export async function findRemoteComment(db: DB, remoteUri: string): Promise<RemoteCommentRow | undefined> {
  const row = await db.selectFrom('comments').select(['id', 'post_id', 'remote_actor_id', 'content', 'content_html'])
    .where('remote_uri', '=', remoteUri).executeTakeFirst();
  return row && row.remote_actor_id !== null ? { ...row, remote_actor_id: row.remote_actor_id } : undefined;
}

/** The article a comment is on, by the comment's id. */
export async function findCommentPostId(db: DB, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('comments').select('post_id').where('id', '=', id).executeTakeFirst();
  return row?.post_id;
}

export interface NewRemoteComment {
  post_id: number;
  remote_actor_id: number;
  remote_uri: string;
  content: string;
  content_html: string;
  created_at: string;
}

/** The new comment's id; undefined when a comment with this Note's id is there already. */
export async function insertRemoteComment(trx: DB, c: NewRemoteComment): Promise<number | undefined> {
  const row = await trx.insertInto('comments').values({
    post_id: c.post_id, author_id: null, remote_actor_id: c.remote_actor_id, remote_uri: c.remote_uri,
    content: c.content, content_html: c.content_html, created_at: c.created_at, updated_at: c.created_at,
  }).onConflict((oc) => oc.column('remote_uri').doNothing()).returning('id').executeTakeFirst();
  return row?.id;
}
