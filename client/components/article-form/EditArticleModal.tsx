// Edit article (SPEC §2, Modals): the article form prefilled with the current values; on success
// the caller's view is replaced with the server's result and the modal closes.
import { api } from '../../api.ts';
import { sendFailed, toastSuccess } from '../../feedback.ts';
import type { ArticleFormBody, Post } from '../../types.ts';
import { Modal } from '../Modal.tsx';
import { ArticleForm } from './ArticleForm.tsx';

export function EditArticleModal({ post, onClose, onSaved }: {
  post: Post;
  onClose: () => void;
  onSaved: (post: Post) => void;
}) {
  async function save(fields: ArticleFormBody) {
    try {
      const updated = await api.posts.update(post.id, fields);
      toastSuccess('Article updated successfully!', 'Error updating article');
      onSaved(updated);
      onClose();
      return true;
    } catch (error) {
      return sendFailed(error, 'Error updating article');
    }
  }

  return (
    <Modal title="Edit article" onClose={onClose} wide>
      <ArticleForm idPrefix={`edit-${post.id}`} initial={post} unsentAs={`article:${post.id}`} label="Edit article"
        submitLabel="Save changes" busyLabel="Saving…" onSubmit={save}>
        <button type="button" className="button" onClick={onClose}>Cancel</button>
      </ArticleForm>
    </Modal>
  );
}
