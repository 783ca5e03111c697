// Comments on articles: anyone signed in may comment; authors edit and delete their own,
// admins may delete any, with a reason. Counters and the article author's notification move with them.
import { commentProblem } from '../../shared/articles.ts';
import { COMMENT_DELETE_REASON_REQUIRED, DELETE_REASON_LENGTH_MESSAGE, DELETE_REASON_MAX } from '../../shared/moderation.ts';
import type { AppContext } from '../context.ts';
import { dialectOf, nowIso } from '../db.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import type { Body, Page } from '../http.ts';
import { multilineText } from '../http.ts';
import { recordModeration } from '../moderation/moderation.service.ts';
import { mutedAuthorsAmong, mutedRemoteAuthorsAmong } from '../mutes/mutes.service.ts';
import { mentionedNamesOf, renderText, type RenderedText } from '../markdown/markdown.service.ts';
import type { MentionedUser } from '../markdown/markdown.mentions.ts';
import { notifyMentions } from '../notifications/mentions.ts';
import { notify } from '../notifications/notifications.service.ts';
import { commentInOneStatement, type CommentWrite } from '../postgres/postgres.hot-writes.ts';
import { ARTICLE_NOT_FOUND, findPost, isListed, visiblePost } from '../posts/posts.service.ts';
import { closeReportsOn } from '../reports/reports.service.ts';
import type { DB, UserRow } from '../schema.ts';
import { adjustAuthorStats, type AuthorStatsChange } from '../users/author-stats.service.ts';
import { requireVerifiedEmail } from '../users/users.verified.ts';
import { brakeNewAccount, isBraked } from '../new-accounts/new-accounts.service.ts';
import {
  adjustPostComments, countCommentsByUserPerAuthor, countNewComment, deleteCommentRow, deleteCommentsByUser,
  findCommentById, insertComment, listComments, listCommentsByUser, subtractCommentsByUser, updateCommentContent,
  type CommentListRow,
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

/**
 * A page of the conversation. For a signed-in reader, each comment says whether its author is one
 * they muted (`author_muted`: the page shows it collapsed); it stays in the thread either way.
 */
export async function commentsOfPost(ctx: AppContext, postId: number, reader: UserRow | undefined, page: Page): Promise<Comment[]> {
  await visiblePost(ctx.db, postId, reader);
  const rows = await listComments(ctx.db, postId, page);
  if (!reader) return rows.map(toComment);
  // A reply from the fediverse is its remote actor's (user_remote_mutes), any other its user's.
  const [muted, mutedRemote] = await Promise.all([
    mutedAuthorsAmong(ctx.db, reader, rows.flatMap((row) => (row.author_id === null ? [] : [row.author_id]))),
    mutedRemoteAuthorsAmong(ctx.db, reader, rows.flatMap((row) => (row.remote_actor_id === null ? [] : [row.remote_actor_id]))),
  ]);
  return rows.map((row) => ({
    ...toComment(row),
    author_muted: row.remote_actor_id !== null ? mutedRemote.has(row.remote_actor_id) : muted.has(row.author_id!),
  }));
}

/** The comments of an article its caller has just read as visible to a visitor (its page): not read again. */
export async function commentsOfVisiblePost(ctx: AppContext, postId: number, page: Page): Promise<Comment[]> {
  return (await listComments(ctx.db, postId, page)).map(toComment);
}

export async function addComment(ctx: AppContext, user: UserRow, postId: number, body: Body): Promise<Comment> {
  requireVerifiedEmail(ctx.config, user);
  const content = commentText(body, 'Write a comment');
  const rendered = await renderText(ctx, content);
  const write = {
    postId, author: user, content, contentHtml: rendered.html, at: nowIso(), notice: newCommentNotice(user.username),
    mentioned: rendered.mentioned, mail: ctx.config.mail !== null,
  };
  // PostgreSQL's one statement tells the article's author; mentions, mail, and a new account's
  // brakes (they count its comments first), in a transaction.
  const braked = isBraked(ctx.config, user);
  const id = dialectOf(ctx.db) === 'postgres' && !mentionsOthers(rendered, user) && !write.mail && !braked
    ? await commentInOneStatement(ctx.db, write)
    : await ctx.db.transaction().execute(async (trx) => {
      if (braked) await brakeNewAccount(trx, ctx.config, user, 'comments');
      return commentInTransaction(trx, write);
    });
  if (id === undefined) throw notFound(ARTICLE_NOT_FOUND);
  // Read back from what was written: the author is the signed-in user, as they are now.
  return toComment({
    id, post_id: postId, author_id: user.id, content, content_html: rendered.html, created_at: write.at, updated_at: write.at,
    author_username: user.username, author_avatar: user.avatar,
    remote_actor_id: null, remote_uri: null, remote_handle: null, remote_name: null, remote_url: null, remote_avatar: null,
  });
}

const mentionsOthers = (rendered: RenderedText, writer: UserRow) => rendered.mentioned.some((user) => user.id !== writer.id);

/** What the article's author is told of a new comment; the message goes around the article's title. */
function newCommentNotice(username: string): CommentWrite['notice'] {
  return { subject: 'New comment', before: `${username} commented on "`, after: '"' };
}

/** The comment's id, or undefined when the article takes no comment (it is not active). */
async function commentInTransaction(
  trx: DB, w: CommentWrite & { mentioned: readonly MentionedUser[]; mail: boolean },
): Promise<number | undefined> {
  // Only a listed article (active, published) takes comments, and it is visible to everyone: its
  // counter moves first, and no row moved means no such article for this reader.
  const post = await countNewComment(trx, w.postId);
  if (!post) return undefined;
  const id = await insertComment(trx, {
    post_id: w.postId, author_id: w.author.id, content: w.content, content_html: w.contentHtml, created_at: w.at, updated_at: w.at,
  });
  if (w.author.id !== post.author_id) {
    await adjustAuthorStats(trx, post.author_id, { comments: 1 }, {
      cause: 'comment_new', at: w.at, postId: w.postId, actorId: w.author.id,
    });
    await notify(trx, {
      userId: post.author_id,
      type: 'other',
      subject: w.notice.subject,
      message: `${w.notice.before}${post.title}${w.notice.after}`,
      actor: w.author,
      post: { id: w.postId, title: post.title },
      mail: w.mail ? { kind: 'comment', commentId: id } : undefined,
    });
  }
  await notifyMentions(trx, { writer: w.author, mentioned: w.mentioned, post: { id: w.postId, title: post.title }, mail: w.mail });
  return id;
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
  if (content !== comment.content) {
    const rendered = await renderText(ctx, content);
    const mentionedBefore = mentionedNamesOf(comment.content); // parsed outside the write transaction
    await ctx.db.transaction().execute(async (trx) => {
      await updateCommentContent(trx, id, content, rendered.html, nowIso());
      const post = await findPost(trx, comment.post_id);
      if (post) {
        await notifyMentions(trx, {
          writer: user, mentioned: rendered.mentioned, before: mentionedBefore, post: { id: post.id, title: post.title },
          mail: ctx.config.mail !== null,
        });
      }
    });
  }
  return toComment(await existingComment(ctx.db, id));
}

/**
 * A comment deleted by its author, or by an admin with a reason (DESIGN.md, Moderation log): then
 * its open reports are resolved, its author is told why, and the public log records it. A reply
 * from the fediverse is only ever an admin's to delete: nothing is sent back to its server, and
 * its author, who has no account here, is told nothing.
 */
export async function deleteComment(ctx: AppContext, user: UserRow, id: number, reason: string): Promise<void> {
  const comment = await findVisibleComment(ctx, id, user);
  const moderating = comment.author_id !== user.id;
  if (moderating && user.level !== 'admin') throw forbidden('You can only delete your own comments');
  if (moderating && !reason) throw badRequest(COMMENT_DELETE_REASON_REQUIRED);
  if (moderating && reason.length > DELETE_REASON_MAX) throw badRequest(DELETE_REASON_LENGTH_MESSAGE);
  await ctx.db.transaction().execute(async (trx) => {
    const post = await findPost(trx, comment.post_id);
    // Before the row goes: its deletion would close them quietly (migration 0009's trigger).
    if (moderating) await closeReportsOn(trx, { type: 'comment', id }, 'deleted', user);
    if (!await deleteCommentRow(trx, id)) {
      // Deleted meanwhile: a second delete of the author's moves no counter; an admin's act undoes its notices.
      if (moderating) throw notFound(COMMENT_NOT_FOUND);
      return;
    }
    await adjustPostComments(trx, comment.post_id, -1);
    if (post && isListed(post) && comment.author_id !== post.author_id) {
      await adjustAuthorStats(trx, post.author_id, { comments: -1 }, {
        cause: 'comment_removed', at: nowIso(), postId: post.id, actorId: comment.author_id,
      });
    }
    if (!moderating || !post) return;
    if (comment.author_id !== null) await notify(trx, {
      userId: comment.author_id,
      type: 'comment_deleted',
      subject: 'Your comment was removed',
      message: `An administrator removed your comment on "${post.title}". Reason: ${reason}`,
      actor: user,
      post: { id: post.id, title: post.title },
    });
    await recordModeration(trx, {
      adminId: user.id, action: 'delete_comment', targetUserId: comment.author_id,
      post: { id: post.id, title: post.title }, commentId: id, reason,
    });
  });
}

/**
 * Removes every comment the user wrote (their account is being removed): the articles' counts
 * move here; what the authors of active articles received is returned, as changes to their
 * counters and mojo, for the caller to apply in the same transaction.
 */
export async function removeCommentsBy(trx: DB, userId: number): Promise<AuthorStatsChange[]> {
  const perAuthor = await countCommentsByUserPerAuthor(trx, userId);
  await subtractCommentsByUser(trx, userId);
  await deleteCommentsByUser(trx, userId);
  return perAuthor.map((a) => ({ userId: a.author_id, comments: -a.n }));
}

export interface WrittenComment {
  id: number;
  post_id: number;
  post_title: string;
  content: string;
  created_at: string;
  updated_at: string;
}

/** Every comment the user wrote, oldest first. */
export function commentsWrittenBy(db: DB, userId: number): Promise<WrittenComment[]> {
  return listCommentsByUser(db, userId);
}
