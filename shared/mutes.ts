// Mutes (DESIGN.md, Accounts, drafts, reports, mutes, moderation log): what the server answers and
// the screens say, for both sides.

/** Authors, and hashtags, one reader may mute: each list at most this long. */
export const MUTES_MAX = 1000;

export const MUTED_COMMENT_TEXT = 'Comment from a muted author';
export const MUTE_SIGN_IN_MESSAGE = 'You must sign in to mute';
export const MUTE_SELF_MESSAGE = 'You cannot mute yourself';
export const MUTE_HASHTAG_REQUIRED_MESSAGE = 'Please enter a hashtag';
export const MUTED_AUTHORS_FULL_MESSAGE = `You can mute at most ${MUTES_MAX} authors: unmute one first`;
export const MUTED_HASHTAGS_FULL_MESSAGE = `You can mute at most ${MUTES_MAX} hashtags: unmute one first`;
/** A remote author's handle (DESIGN.md, The fediverse): `user@server`, a leading @ allowed. */
export const REMOTE_HANDLE_MESSAGE = 'Please enter a handle such as user@example.org';
export const REMOTE_AUTHOR_NOT_FOUND = 'Remote author not found';
