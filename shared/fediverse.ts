// The fediverse as readers see it (DESIGN.md, The fediverse (ActivityPub)): an author's handle,
// and the words for what comes from other servers, written once for every screen.
import { plural } from './plural.ts';

export const FOLLOW_ON_FEDIVERSE = 'Follow on the fediverse';

/** A link to a page on another server (a remote author's profile): the `rel` that off-site links
 * in written text get too (server/markdown/). */
export const REMOTE_LINK_REL = 'ugc nofollow noopener noreferrer';

/** '@username@host': what someone on Mastodon types to find the author (WebFinger). */
export function fediverseHandle(username: string, host: string): string {
  return `@${username}@${host}`;
}

/** '3 likes · 1 boost': an article's likes and boosts from the fediverse; '' when it has none. */
export function reactionsText(likes: number, boosts: number): string {
  const parts = [likes > 0 ? plural(likes, 'like') : '', boosts > 0 ? plural(boosts, 'boost') : ''];
  return parts.filter(Boolean).join(' · ');
}

/** '+ 2 on the fediverse': followers on other servers, beside the local count. */
export function remoteFollowersText(count: number): string {
  return `+ ${count} on the fediverse`;
}
