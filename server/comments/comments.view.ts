// The Comment object of DESIGN.md, Objects. The client shows '(edited)' when updated_at > created_at.
// A reply from the fediverse (DESIGN.md, Inbox) has no local author: its author_* are null and
// `remote_author` says who wrote it; a local comment carries no `remote_author` key at all.
import { uploadUrl } from '../uploads.ts';
import type { CommentListRow } from './comments.repo.ts';

/** Who wrote a comment on another server: what the page shows of them. */
export interface RemoteAuthor {
  /** `@user@server`. */
  handle: string;
  name: string;
  /** Their profile page, or their actor's id when they gave none. */
  url: string;
  /** An absolute URL, or null. */
  avatar: string | null;
}

export interface Comment {
  id: number;
  post_id: number;
  /** The Markdown source, as its author edits it (DESIGN.md, Writing); a remote reply's text without markup. */
  content: string;
  /** Its sanitized rendering, made when written: what readers see. */
  content_html: string;
  author_id: number | null;
  author_username: string | null;
  author_avatar: string | null;
  /** Only on a reply from the fediverse. */
  remote_author?: RemoteAuthor;
  created_at: string;
  updated_at: string;
  /** To a signed-in reader only: they muted its author (DESIGN.md, Mutes). */
  author_muted?: boolean;
}

export function toComment(row: CommentListRow): Comment {
  const comment: Comment = {
    id: row.id,
    post_id: row.post_id,
    content: row.content,
    content_html: row.content_html,
    author_id: row.author_id,
    author_username: row.author_username,
    author_avatar: uploadUrl(row.author_avatar),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.remote_handle !== null) {
    comment.remote_author = { handle: `@${row.remote_handle}`, name: row.remote_name ?? '', url: row.remote_url ?? '', avatar: row.remote_avatar };
  }
  return comment;
}
