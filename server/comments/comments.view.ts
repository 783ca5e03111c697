// The Comment object of DESIGN.md, Objects. The client shows '(edited)' when updated_at > created_at.
import { uploadUrl } from '../uploads.ts';
import type { CommentListRow } from './comments.repo.ts';

export interface Comment {
  id: number;
  post_id: number;
  /** The Markdown source, as its author edits it (DESIGN.md, Writing). */
  content: string;
  /** Its sanitized rendering, made when written: what readers see. */
  content_html: string;
  author_id: number;
  author_username: string;
  author_avatar: string | null;
  created_at: string;
  updated_at: string;
  /** To a signed-in reader only: they muted its author (DESIGN.md, Mutes). */
  author_muted?: boolean;
}

export function toComment(row: CommentListRow): Comment {
  return {
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
}
