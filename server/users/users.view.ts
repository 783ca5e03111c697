// How a user row is shown: publicly, to themself, and to admins (DESIGN.md, Objects).
import type { UserRow } from '../schema.ts';
import { uploadUrl } from '../uploads.ts';
import { activeBan } from './users.bans.ts';

export interface PublicUser {
  id: number;
  username: string;
  avatar: string | null;
  bio: string;
  level: UserRow['level'];
  mojo: number;
  posts_count: number;
  followers_count: number;
  following_count: number;
  /** Followers on other servers (DESIGN.md, The fediverse). */
  remote_followers_count: number;
  created_at: string;
  is_following?: boolean;
}

export interface PrivateUser extends PublicUser {
  email: string;
  /** False until the address answered its link (DESIGN.md, Mail); accounts from before mail, and the CLI's, are. */
  email_verified: boolean;
  /** Two-factor sign-in is on (Settings → Security); its secret is in no answer. */
  two_factor_enabled: boolean;
  last_login: string | null;
  is_banned: boolean;
  ban_permanent: boolean;
  ban_until: string | null;
  ban_reason: string | null;
}

export function toPublicUser(user: UserRow): PublicUser {
  return {
    id: user.id,
    username: user.username,
    avatar: uploadUrl(user.avatar),
    bio: user.bio,
    level: user.level,
    mojo: user.mojo,
    posts_count: user.posts_count,
    followers_count: user.followers_count,
    following_count: user.following_count,
    remote_followers_count: user.remote_followers_count,
    created_at: user.created_at,
  };
}

/** The user as they themself, or an admin, see them. */
export function toPrivateUser(user: UserRow, now = new Date()): PrivateUser {
  const ban = activeBan(user, now);
  return {
    ...toPublicUser(user),
    email: user.email,
    email_verified: user.email_verified === 1,
    two_factor_enabled: user.two_factor_enabled === 1,
    last_login: user.last_login,
    is_banned: ban !== undefined,
    ban_permanent: ban?.permanent ?? false,
    ban_until: ban?.until ?? null,
    ban_reason: ban?.reason ?? null,
  };
}
