// The mojo ledger's words and arithmetic (docs/mojo.md, The ledger), for the server and the
// client alike. The database keeps deltas in hundredths of a point, as integers, so that a
// user's deltas add up to their mojo exactly; points are for people.

/** Why an author's mojo moved: one of these, in every ledger event. */
export const MOJO_CAUSES = [
  'rating_new', 'rating_changed', 'comment_new', 'comment_removed', 'follower_new', 'follower_lost',
  'visits', 'post_removed', 'recompute',
] as const;

export type MojoCause = typeof MOJO_CAUSES[number];

/** A mojo (rounded to two decimals, as stored) in hundredths of a point. */
export function toHundredths(mojo: number): number {
  return Math.round(mojo * 100);
}

/** Hundredths of a point as points, two decimals at most. */
export function fromHundredths(hundredths: number): number {
  return hundredths / 100;
}

/**
 * The event's cause in words. post_removed with a rise is an article back in the count: unarchived
 * (the one cause for both directions, as the contract names nine causes).
 */
export function mojoCauseWords(cause: MojoCause, delta: number): string {
  switch (cause) {
    case 'rating_new': return 'New rating';
    case 'rating_changed': return 'Rating changed';
    case 'comment_new': return 'New comment';
    case 'comment_removed': return 'Comment removed';
    case 'follower_new': return 'New follower';
    case 'follower_lost': return 'Follower lost';
    case 'visits': return 'Readers';
    case 'post_removed': return delta >= 0 ? 'Article back from the archive' : 'Article archived or deleted';
    case 'recompute': return 'Recomputed';
  }
}

/** A delta as the ledger shows it: a sign always, two decimals. */
export function formatMojoDelta(delta: number): string {
  return `${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(2)}`;
}
