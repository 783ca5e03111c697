// SPEC §5, Comment: trimmed, required, at most 1000 characters. The empty message differs between
// writing ('Write a comment') and editing ('Comment cannot be empty').
import { textLength } from '../../../shared/text.ts';

export const COMMENT_MAX = 1000;

export function commentError(text: string, emptyMessage: string): string | undefined {
  const length = textLength(text);
  if (length === 0) return emptyMessage;
  if (length > COMMENT_MAX) return 'Comment cannot exceed 1000 characters';
  return undefined;
}
