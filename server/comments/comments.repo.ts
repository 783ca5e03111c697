// SQL for comments, always with their author's current name and avatar.
import { sqlOf, type Connection } from '../connection.ts';
import type { DB } from '../db.ts';
import type { CommentRow } from '../schema.ts';

export type CommentListRow = CommentRow & { author_username: string; author_avatar: string | null };

function selectComments(db: DB) {
  return db.selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .selectAll('comments')
    .select(['users.username as author_username', 'users.avatar as author_avatar']);
}

const COMMENT_BY_ID = sqlOf((db) => selectComments(db).where('comments.id', '=', 0));

/** A prepared statement: a new comment is read back at once (connection.ts). */
export function findCommentById(conn: Connection, id: number): CommentListRow | undefined {
  return conn.get<CommentListRow>(COMMENT_BY_ID, id);
}

/** Oldest first: a conversation reads top to bottom and new comments are appended. */
export function listComments(db: DB, postId: number, page: { skip: number; limit: number }): Promise<CommentListRow[]> {
  return selectComments(db).where('comments.post_id', '=', postId)
    .orderBy('comments.created_at', 'asc').orderBy('comments.id', 'asc')
    .limit(page.limit).offset(page.skip).execute();
}

export function insertComment(conn: Connection, values: Omit<CommentRow, 'id'>): number {
  const { lastInsertRowid } = conn.run(
    'INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    values.post_id, values.author_id, values.content, values.created_at, values.updated_at);
  return Number(lastInsertRowid);
}

export async function updateCommentContent(db: DB, id: number, content: string, at: string): Promise<void> {
  await db.updateTable('comments').set({ content, updated_at: at }).where('id', '=', id).execute();
}

export function deleteCommentRow(conn: Connection, id: number): void {
  conn.run('DELETE FROM comments WHERE id = ?', id);
}

export function adjustPostComments(conn: Connection, postId: number, delta: 1 | -1): void {
  conn.run('UPDATE posts SET comments_count = comments_count + ? WHERE id = ?', delta, postId);
}
