// Comments under an article (SPEC §2 Article, §4 Comment, §5 Comment): list, form, edit/save/
// cancel for one's own comments, delete with confirmation (own, or any for an admin, who gives a
// reason), and Report for a signed-in reader on anyone else's. A muted author's comment shows
// collapsed, 'Comment from a muted author', with a way to show it. A reply from the fediverse
// (`remote_author`) shows its author's name, linking to their server, their @user@server handle
// and picture, and can be muted from where it stands: its author has no profile here.
import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, lazy, useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { textLength } from '../../../shared/text.ts';
import { COMMENT_MAX, commentProblem } from '../../../shared/articles.ts';
import { MUTED_COMMENT_TEXT } from '../../../shared/mutes.ts';
import { ApiError, api, endExpiredSession } from '../../api.ts';
import { endpoints } from '../../endpoints.ts';
import { sendFailed, toastApiError, toastError, toastSuccess } from '../../feedback.ts';
import { isEdited } from '../../format.ts';
import { useRead } from '../../hooks/useRead.ts';
import { isMutedRemote, myMutes, setRemoteMute } from '../../state/mutes.ts';
import { currentUser } from '../../state/session.ts';
import type { Comment } from '../../types.ts';
import { Avatar } from '../Avatar.tsx';
import { RemoteAuthorLink, RemoteAvatar, remoteName } from '../RemoteAuthor.tsx';
import { TimeAgo } from '../TimeAgo.tsx';
import { MarkdownEditor } from '../editor/MarkdownEditor.tsx';
import { UnsentNotice } from '../editor/UnsentNotice.tsx';
import { unsentKey, useUnsent } from '../editor/unsent.ts';
import { ConfirmDialog } from '../Modal.tsx';
import { authorHref } from '../posts/PostBits.tsx';
import { Prose } from '../Prose.tsx';

// Loaded when first opened, with the other screens (screens.ts): most readers never open them.
const ReportDialog = lazy(() => import('../../screens.ts').then((m) => ({ default: m.ReportDialog })));
const DeleteCommentDialog = lazy(() => import('../../screens.ts').then((m) => ({ default: m.DeleteCommentDialog })));

export function CommentsSection({ postId, onCountChange }: { postId: number; onCountChange(delta: number): void }) {
  useSignals();
  const user = currentUser.value;
  const read = useRead(endpoints.comments.list(postId));
  const comments = read.value ?? (read.error === undefined ? null : []);
  const setComments = read.update;
  const [toDelete, setToDelete] = useState<Comment | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [reporting, setReporting] = useState<Comment | null>(null);
  // An admin removing someone else's comment says why.
  const moderating = toDelete !== null && user !== null && toDelete.author_id !== user.id;

  useEffect(() => {
    if (read.error !== undefined) toast.error('Error loading comments');
  }, [read.error]);

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await api.comments.remove(toDelete.id);
      setComments((list) => list.filter((c) => c.id !== toDelete.id));
      onCountChange(-1);
      toastSuccess('Comment deleted successfully', 'Error deleting comment');
      setToDelete(null);
    } catch (error) {
      toastApiError(error, 'Error deleting comment');
    } finally {
      setDeleting(false);
    }
  }

  const count = comments?.length ?? 0;
  return (
    <section className="comments" aria-labelledby="comments-title">
      <h2 id="comments-title" className="section-title section-title--ruled">
        Letters to the editor {comments ? <span className="quiet">({count})</span> : null}
      </h2>
      {comments === null ? <p className="quiet" role="status">Loading comments…</p> : null}
      {comments && comments.length === 0 ? <p className="quiet">No comments yet. Be the first to write one.</p> : null}
      {comments && comments.length > 0 ? (
        <ol className="comments__list">
          {comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment}
              canEdit={user?.id === comment.author_id}
              canDelete={user !== null && (user.id === comment.author_id || user.level === 'admin')}
              canReport={user !== null && user.id !== comment.author_id}
              canMute={user !== null && comment.remote_author !== undefined}
              onSaved={(saved) => setComments((list) => list.map((c) => (c.id === saved.id ? saved : c)))}
              onDelete={() => setToDelete(comment)} onReport={() => setReporting(comment)} />
          ))}
        </ol>
      ) : null}
      {user ? (
        <CommentForm postId={postId} onAdded={(comment) => {
          setComments((list) => [...list, comment]);
          onCountChange(1);
        }} />
      ) : (
        <p className="comments__signin"><Link href="/login">Sign in to join the conversation</Link></p>
      )}
      {toDelete && !moderating ? (
        <ConfirmDialog title="Delete comment" message="Are you sure you want to delete this comment? This cannot be undone."
          confirmLabel="Delete" busy={deleting} onConfirm={() => void confirmDelete()} onCancel={() => setToDelete(null)} />
      ) : null}
      {toDelete && moderating ? (
        <Suspense fallback={null}>
          <DeleteCommentDialog comment={toDelete} onClose={() => setToDelete(null)} onDeleted={() => {
            setComments((list) => list.filter((c) => c.id !== toDelete.id));
            onCountChange(-1);
          }} />
        </Suspense>
      ) : null}
      {reporting ? (
        <Suspense fallback={null}><ReportDialog type="comment" id={reporting.id} onClose={() => setReporting(null)} /></Suspense>
      ) : null}
    </section>
  );
}

function CommentItem({ comment, canEdit, canDelete, canReport, canMute, onSaved, onDelete, onReport }: {
  comment: Comment;
  canEdit: boolean;
  canDelete: boolean;
  canReport: boolean;
  canMute: boolean;
  onSaved(comment: Comment): void;
  onDelete(): void;
  onReport(): void;
}) {
  const [editing, setEditing] = useState(false);
  // A comment by an author the reader muted stays in the thread, collapsed until asked for.
  const [shown, setShown] = useState(false);

  if (comment.author_muted && !shown) {
    return (
      <li className="comment comment--muted">
        <p className="comment__muted">
          {MUTED_COMMENT_TEXT}{' '}
          <button type="button" className="link-button" onClick={() => setShown(true)}>Show<span className="visually-hidden"> comment</span></button>
        </p>
      </li>
    );
  }

  const remote = comment.remote_author;
  return (
    <li className={remote ? 'comment comment--remote' : 'comment'}>
      <div className="comment__head">
        {remote ? (
          <>
            <RemoteAvatar author={remote} size={32} />
            <RemoteAuthorLink author={remote} className="comment__author" />
            {remoteName(remote) !== remote.handle ? <span className="comment__handle">{remote.handle}</span> : null}
          </>
        ) : (
          <>
            <Avatar username={comment.author_username ?? ''} avatar={comment.author_avatar} size={32} />
            <Link href={authorHref(comment.author_username ?? '')} className="comment__author">{comment.author_username}</Link>
          </>
        )}
        <TimeAgo className="comment__time" iso={comment.created_at} />
        {isEdited(comment) ? <span className="comment__edited">(edited)</span> : null}
      </div>
      {editing ? (
        <CommentEditor comment={comment} onDone={(saved) => { if (saved) onSaved(saved); setEditing(false); }} />
      ) : (
        <>
          <Prose className="comment__body" html={comment.content_html} />
          {canEdit || canDelete || canReport || canMute ? (
            <div className="comment__actions">
              {canEdit ? <button type="button" className="link-button" onClick={() => setEditing(true)}>Edit<span className="visually-hidden"> comment</span></button> : null}
              {canDelete ? <button type="button" className="link-button" onClick={onDelete}>Delete<span className="visually-hidden"> comment</span></button> : null}
              {canReport ? <button type="button" className="link-button" onClick={onReport}>Report<span className="visually-hidden"> comment</span></button> : null}
              {canMute && remote ? <RemoteMuteButton handle={remote.handle} /> : null}
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}

/** Mute / Unmute a fediverse author, from their comment; shows once the reader's mutes are known. */
function RemoteMuteButton({ handle }: { handle: string }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  if (myMutes.value === null) return null;
  const muted = isMutedRemote(handle);

  async function toggle() {
    setBusy(true);
    await setRemoteMute(handle, !muted);
    setBusy(false);
  }

  return (
    <button type="button" className="link-button" aria-pressed={muted} disabled={busy} onClick={() => void toggle()}>
      {muted ? 'Unmute' : 'Mute'}<span className="visually-hidden"> {handle}</span>
    </button>
  );
}

const sameText = (a: string, b: string) => a === b;

/** The counter of a comment's length (SPEC §5: 1000 characters at most). */
function CommentCounter({ id, text }: { id: string; text: string }) {
  const length = textLength(text);
  return <span id={id} className={length > COMMENT_MAX ? 'counter counter--over' : 'counter'}>{length}/{COMMENT_MAX}</span>;
}

/** One's own comment in the editor; what is typed and not saved is kept (editor/unsent.ts). */
function CommentEditor({ comment, onDone }: { comment: Comment; onDone(saved?: Comment): void }) {
  useSignals();
  const userId = currentUser.value?.id;
  const [draft, setDraft] = useState(comment.content);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const unsent = useUnsent(userId === undefined ? undefined : unsentKey(userId, `comment:${comment.id}`), draft, comment.content, sameText);
  const fieldId = `comment-edit-${comment.id}`;

  async function save() {
    const problem = commentProblem(draft, 'Comment cannot be empty');
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const saved = await api.comments.edit(comment.id, draft.trim());
      unsent.sent();
      onDone(saved);
      toastSuccess('Comment updated successfully', 'Error updating comment');
    } catch (err) {
      sendFailed(err, 'Error updating comment');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="comment__edit">
      {unsent.offer ? (
        <UnsentNotice savedAt={unsent.offer.savedAt}
          onRestore={() => { const kept = unsent.accept(); if (kept !== undefined) setDraft(kept); }} onDiscard={unsent.discard} />
      ) : null}
      <MarkdownEditor id={fieldId} label="Edit your comment" value={draft} error={error} rows={3} hintId={`${fieldId}-count`}
        onChange={(text) => { setDraft(text); setError(undefined); }}
        hint={<CommentCounter id={`${fieldId}-count`} text={draft} />} />
      <div className="comment__actions">
        <button type="button" className="button button--small" disabled={busy}
          onClick={() => { unsent.sent(); onDone(); }}>Cancel</button>
        <button type="button" className="button button--small button--primary" disabled={busy} onClick={() => void save()}>Save</button>
      </div>
    </div>
  );
}

function CommentForm({ postId, onAdded }: { postId: number; onAdded(comment: Comment): void }) {
  useSignals();
  const userId = currentUser.value?.id;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [restoredAt, setRestoredAt] = useState<string>();
  // The form opens empty: an unsent comment (a reload, a send that met an expired session) comes back at once.
  const unsent = useUnsent(userId === undefined ? undefined : unsentKey(userId, `comment:on:${postId}`), text, '', sameText,
    (kept, savedAt) => { setText(kept); setRestoredAt(savedAt); });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = commentProblem(text, 'Write a comment');
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const comment = await api.comments.add(postId, text.trim());
      unsent.sent();
      onAdded(comment);
      setText('');
      setRestoredAt(undefined);
      toastSuccess('Comment added', 'Error submitting comment');
    } catch (err) {
      // SPEC §8's fixed text, whatever the server said; an expired session signs in and comes back.
      toastError('Error submitting comment');
      if (err instanceof ApiError && err.status === 401) endExpiredSession();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="comment-form form" onSubmit={(e) => void submit(e)} noValidate>
      {restoredAt ? (
        <UnsentNotice savedAt={restoredAt}
          onDiscard={() => { setText(''); setRestoredAt(undefined); unsent.discard(); }} />
      ) : null}
      <MarkdownEditor id="comment-new" label="Your comment" value={text} error={error} rows={4} hintId="comment-new-count"
        placeholder="Write a comment"
        onChange={(value) => { setText(value); setError(undefined); }}
        hint={<CommentCounter id="comment-new-count" text={text} />} />
      <div>
        <button type="submit" className="button button--primary" disabled={busy}>Post comment</button>
      </div>
    </form>
  );
}
