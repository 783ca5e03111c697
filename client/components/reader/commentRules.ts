// SPEC §5, Comment: trimmed, required, at most 1000 characters. The empty message differs between
// writing ('Write a comment') and editing ('Comment cannot be empty').
export const COMMENT_MAX = 1000;

export function commentError(text: string, emptyMessage: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return emptyMessage;
  if (trimmed.length > COMMENT_MAX) return 'Comment cannot exceed 1000 characters';
  return undefined;
}
