// The kinds of mail a reader chooses in Settings → Email notifications (DESIGN.md, Mail), as the
// unsubscribe page and its answer name them. Shared by the server and the client.

export type MailKind = 'comments' | 'followers' | 'mentions' | 'digest';

export const MAIL_KINDS: readonly MailKind[] = ['comments', 'followers', 'mentions', 'digest'];

const NAMES: Record<MailKind, string> = {
  comments: 'comments on your articles',
  followers: 'new followers',
  mentions: 'mentions of you',
  digest: 'the weekly digest',
};

/** "comments on your articles and mentions of you" */
export function mailKindsText(kinds: readonly MailKind[]): string {
  const names = kinds.map((kind) => NAMES[kind]);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The answer to an unsubscribe. */
export function unsubscribedText(kinds: readonly MailKind[]): string {
  return `You will no longer get mail about ${mailKindsText(kinds)}.`;
}

export const UNSUBSCRIBE_LINK_INVALID = 'This unsubscribe link is invalid.';
