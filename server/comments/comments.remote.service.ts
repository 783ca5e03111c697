// Replies from the fediverse as comments (DESIGN.md, Inbox): a Note answering a local article, or
// one of its comments, is a comment by its remote actor, counted, notified, reportable, mutable and
// deletable like a local one. The federation's inbox (server/federation/) calls these once Fedify
// has verified who sent the activity; each is idempotent, since a server may deliver twice.
//
// Decisions: a Note's HTML is brought to the allowlist of DESIGN.md, Writing
// (sanitizeRemoteHtml), and `content` keeps its text without markup. A reply whose text is
// longer than a local comment may be (COMMENT_MAX) or empty is refused, not cut: its author's words
// are theirs, and half of them would misquote them. It is told to the article's author in the app;
// the notification mail tells of local users' acts only (mail_items names a local actor).
import { commentProblem } from '../../shared/articles.ts';
import { htmlText } from '../../shared/html-text.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { sanitizeRemoteHtml } from '../markdown/markdown.sanitize.ts';
import { remoteAuthorMutedBy } from '../mutes/mutes.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import { findPost, isListed } from '../posts/posts.service.ts';
import type { DB } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import {
  adjustPostComments, countNewComment, deleteCommentRow, findCommentPostId, findRemoteComment, insertRemoteComment,
  updateCommentContent,
} from './comments.repo.ts';

/** The stored HTML may be larger than its text (links), never without bound. */
const REMOTE_HTML_MAX = 20_000;

/** A remote actor as Beatnik keeps it (remote_actors). */
export interface RemoteWriter {
  id: number;
  /** user@domain. */
  handle: string;
}

/** Where a reply is aimed: a local article, a local comment, or a reply from the fediverse stored here. */
export type ReplyTarget = { postId: number } | { commentId: number } | { remoteUri: string };

export type ReplyOutcome = 'added' | 'known' | 'refused';

/** The sanitized HTML and its text, or undefined when the reply cannot be a comment (empty, too long). */
function remoteText(ctx: AppContext, html: string): { html: string; text: string } | undefined {
  // The sanitizer also drops control and invisible characters, typed or as references (a NUL,
  // which PostgreSQL refuses; a bidi override): neither the page nor the text gets one.
  const clean = sanitizeRemoteHtml(html, ctx.config.publicUrl);
  const text = htmlText(clean);
  if (clean.length > REMOTE_HTML_MAX || commentProblem(text, 'empty') !== undefined) return undefined;
  return { html: clean, text };
}

/** The article a reply is on, or undefined when it answers nothing of this site's. */
async function replyPostId(db: DB, target: ReplyTarget): Promise<number | undefined> {
  if ('postId' in target) return target.postId;
  if ('commentId' in target) return findCommentPostId(db, target.commentId);
  return (await findRemoteComment(db, target.remoteUri))?.post_id;
}

class AlreadyStored extends Error {}

/**
 * A Note answering a local article (or one of its comments) becomes a comment: only on an active,
 * published article (a draft's or an archived one's reply is refused), once per Note id.
 */
export async function addRemoteComment(
  ctx: AppContext, reply: { writer: RemoteWriter; uri: string; html: string; target: ReplyTarget },
): Promise<ReplyOutcome> {
  if (await findRemoteComment(ctx.db, reply.uri)) return 'known';
  const postId = await replyPostId(ctx.db, reply.target);
  const text = remoteText(ctx, reply.html);
  if (postId === undefined || !text) return 'refused';
  const at = nowIso();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // Only a listed article takes comments: its counter moves first, or nothing does.
      const post = await countNewComment(trx, postId);
      if (!post) return 'refused';
      const id = await insertRemoteComment(trx, {
        post_id: postId, remote_actor_id: reply.writer.id, remote_uri: reply.uri, content: text.text, content_html: text.html, created_at: at,
      });
      // Delivered twice at once: the other delivery stored it; this one's counter goes back.
      if (id === undefined) throw new AlreadyStored();
      await adjustAuthorStats(trx, post.author_id, { comments: 1 }, { cause: 'comment_new', at, postId, actorId: null });
      if (!await remoteAuthorMutedBy(trx, post.author_id, reply.writer.id)) {
        await notify(trx, {
          userId: post.author_id, type: 'other', subject: 'New comment',
          message: `@${reply.writer.handle} commented on "${post.title}"`, post: { id: postId, title: post.title },
        });
      }
      return 'added';
    });
  } catch (err) {
    if (err instanceof AlreadyStored) return 'known';
    throw err;
  }
}

/** Update(Note) from its own author: the comment's new text; false when there is none of theirs. */
export async function editRemoteComment(ctx: AppContext, edit: { writerId: number; uri: string; html: string }): Promise<boolean> {
  const comment = await findRemoteComment(ctx.db, edit.uri);
  if (!comment || comment.remote_actor_id !== edit.writerId) return false;
  const text = remoteText(ctx, edit.html);
  if (!text || text.html === comment.content_html) return false;
  await updateCommentContent(ctx.db, comment.id, text.text, text.html, nowIso());
  return true;
}

/** Delete(Note) from its own author: the comment goes, and what it counted; false when there is none of theirs. */
export async function removeRemoteComment(ctx: AppContext, removal: { writerId: number; uri: string }): Promise<boolean> {
  const comment = await findRemoteComment(ctx.db, removal.uri);
  if (!comment || comment.remote_actor_id !== removal.writerId) return false;
  return ctx.db.transaction().execute(async (trx) => {
    // Its open reports close quietly with it (migration 0009's trigger): its author took it back.
    if (!await deleteCommentRow(trx, comment.id)) return false;
    await adjustPostComments(trx, comment.post_id, -1);
    const post = await findPost(trx, comment.post_id);
    if (post && isListed(post)) {
      await adjustAuthorStats(trx, post.author_id, { comments: -1 }, { cause: 'comment_removed', at: nowIso(), postId: post.id, actorId: null });
    }
    return true;
  });
}
