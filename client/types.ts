// The API's wire types, imported from the server as types only (never server code).
import type { Post } from '../server/posts/posts.view.ts';
import type { PublicUser } from '../server/users/users.view.ts';

export type { Post, PublicUser };
export type { Comment } from '../server/comments/comments.view.ts';
export type { PrivateUser } from '../server/users/users.view.ts';
export type { HashtagStat } from '../server/discovery/discovery.repo.ts';

export interface PostList {
  posts: Post[];
  total: number;
}

/** A Voices card: a public user with the average rating their articles received. */
export interface AuthorCard extends PublicUser {
  average_rating: number;
}

/** A row of a followers/following list: the listed user, when the follow was made, and whether
 *  the reader follows them (signed-in readers only). */
export interface FollowListItem extends PublicUser {
  followed_at: string;
}

/** POST/DELETE /api/follow/{id} and the by-username toggle. */
export interface FollowResult {
  message: string;
  following: boolean;
  followers_count: number;
}
export type { Notification } from '../server/notifications/notifications.view.ts';
export type { BannedUser } from '../server/admin/admin.service.ts';
export type { MyStats } from '../server/users/users.stats.ts';
