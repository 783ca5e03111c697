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
