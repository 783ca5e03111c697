// SQL for comments, always with their author's current name and avatar.
import { sql } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { CommentRow, DB } from '../schema.ts';

export type CommentListRow = CommentRow & { author_username: string; author_avatar: string | null };

function selectComments(db: DB) {
  return db.selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .selectAll('comments')
    .select(['users.username as author_username', 'users.avatar as author_avatar']);
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

const insert = preparedQuery((db, p: Omit<CommentRow, 'id'>) =>
  db.insertInto('comments').values({
    post_id: p.post_id, author_id: p.author_id, content: p.content, content_html: p.content_html,
    created_at: p.created_at, updated_at: p.updated_at,
  }).returning('id'));

export async function insertComment(trx: DB, values: Omit<CommentRow, 'id'>): Promise<number> {
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
