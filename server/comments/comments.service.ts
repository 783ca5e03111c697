// Comments on articles: anyone signed in may comment; authors edit and delete their own,
// admins may delete any. Counters and the article author's notification move with them.
import { commentProblem } from '../../shared/articles.ts';
import type { AppContext } from '../context.ts';
import type { DB } from '../db.ts';
import { nowIso } from '../db.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import type { Body, Page } from '../http.ts';
import { multilineText } from '../http.ts';
import { notify } from '../notifications/notifications.service.ts';
import { ARTICLE_NOT_FOUND, findPost, visiblePost } from '../posts/posts.service.ts';
import type { UserRow } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import {
  adjustPostComments, countNewComment, deleteCommentRow, findCommentById, insertComment, listComments,
  updateCommentContent, type CommentListRow,
} from './comments.repo.ts';
import { toComment, type Comment } from './comments.view.ts';

export const COMMENT_NOT_FOUND = 'Comment not found';

/** The comment as stored, or the 400 SPEC §5 names. */
export function commentText(body: Body, emptyDetail: string): string {
  const content = multilineText(body, 'content') ?? '';
  const problem = commentProblem(content, emptyDetail);
  if (problem) throw badRequest(problem);
  return content;
}

export async function commentsOfPost(ctx: AppContext, postId: number, reader: UserRow | undefined, page: Page): Promise<Comment[]> {
  await visiblePost(ctx.db, postId, reader);
  return (await listComments(ctx.db, postId, page)).map(toComment);
}

export async function addComment(ctx: AppContext, user: UserRow, postId: number, body: Body): Promise<Comment> {
  const content = commentText(body, 'Write a comment');
  return ctx.db.transaction().execute(async (trx) => {
    // Only an active article takes comments, and an active article is visible to everyone: its
    // counter moves first, and no row moved means no such article for this reader.
    const post = await countNewComment(trx, postId);
    if (!post) throw notFound(ARTICLE_NOT_FOUND);
    const at = nowIso();
    const id = await insertComment(trx, { post_id: postId, author_id: user.id, content, created_at: at, updated_at: at });
    if (user.id !== post.author_id) {
      await adjustAuthorStats(trx, post.author_id, { comments: 1 });
      await notify(trx, {
        userId: post.author_id,
        type: 'other',
        subject: 'New comment',
        message: `${user.username} commented on "${post.title}"`,
        actor: { id: user.id, username: user.username },
        post: { id: postId, title: post.title },
      });
    }
    // Read back from what was written: the author is the signed-in user, as they are now.
    return toComment({
      id, post_id: postId, author_id: user.id, content, created_at: at, updated_at: at,
      author_username: user.username, author_avatar: user.avatar,
    });
  });
}

async function existingComment(db: DB, id: number): Promise<CommentListRow> {
  const comment = await findCommentById(db, id);
  if (!comment) throw notFound(COMMENT_NOT_FOUND);
  return comment;
}

/** A comment the user may see: its article must be visible to them too. */
async function findVisibleComment(ctx: AppContext, id: number, user: UserRow): Promise<CommentListRow> {
  const comment = await existingComment(ctx.db, id);
  try {
    await visiblePost(ctx.db, comment.post_id, user);
  } catch {
    throw notFound(COMMENT_NOT_FOUND);
  }
  return comment;
}

export async function editComment(ctx: AppContext, user: UserRow, id: number, body: Body): Promise<Comment> {
  const comment = await findVisibleComment(ctx, id, user);
  if (comment.author_id !== user.id) throw forbidden('You can only edit your own comments');
  const content = commentText(body, 'Comment cannot be empty');
  if (content !== comment.content) await updateCommentContent(ctx.db, id, content, nowIso());
  return toComment(await existingComment(ctx.db, id));
}

export async function deleteComment(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  const comment = await findVisibleComment(ctx, id, user);
  if (comment.author_id !== user.id && user.level !== 'admin') {
    throw forbidden('You can only delete your own comments');
  }
  await ctx.db.transaction().execute(async (trx) => {
    // A second delete of the same comment at once finds it gone and moves no counter.
    if (!await deleteCommentRow(trx, id)) return;
    const post = await findPost(trx, comment.post_id);
    await adjustPostComments(trx, comment.post_id, -1);
    if (post && post.archived === 0 && comment.author_id !== post.author_id) {
      await adjustAuthorStats(trx, post.author_id, { comments: -1 });
    }
  });
}
