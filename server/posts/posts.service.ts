// Articles as readers find them: who may see one, and the lists they appear in. Changing articles
// is posts.write.service.ts's; reading one with its visit, posts.read.service.ts's.
import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import type { Page } from '../http.ts';
import type { DB, PostRow, UserRow } from '../schema.ts';
import { findUserOr404 } from '../users/users.service.ts';
import {
  countPosts, findPostById, findPostsByIds, findPostForReader, listAllAuthorPosts, listPosts, listRankedPosts,
  type PostFilter, type PostListRow, type PostSort, type RankCriteria, type ReaderPostRow,
} from './posts.repo.ts';
import { toPost, type Post } from './posts.view.ts';

export type { PostFilter, PostSort, RankCriteria, ReaderPostRow };
export { POST_SORTS } from './posts.repo.ts';

export const ARTICLE_NOT_FOUND = 'Article not found';

export type Reader = Pick<UserRow, 'id' | 'level'> | undefined;

/**
 * A published, unarchived article: the only kind that lists, feeds, search, rankings and every
 * counter know. Drafts and archived articles exist only for their author and for admins.
 */
export function isListed(post: Pick<PostRow, 'archived' | 'status'>): boolean {
  return post.archived === 0 && post.status === 'published';
}

export function canSee(post: Pick<PostListRow, 'archived' | 'status' | 'author_id'>, reader: Reader): boolean {
  return isListed(post) || reader?.id === post.author_id || reader?.level === 'admin';
}

/** The post as stored, visible or not (other features' counters follow it). */
export function findPost(db: DB, postId: number): Promise<PostListRow | undefined> {
  return findPostById(db, postId);
}

/** The post itself, or 404 when it does not exist for this reader. */
export function visibleTo<Row extends PostListRow>(post: Row | undefined, reader: Reader): Row {
  if (!post || !canSee(post, reader)) throw notFound(ARTICLE_NOT_FOUND);
  return post;
}

/** The post as stored, or 404 when it does not exist for this reader. */
export async function visiblePost(db: DB, postId: number, reader: Reader): Promise<PostListRow> {
  return visibleTo(await findPostById(db, postId), reader);
}

/** The post with the signed-in reader's own rating, or 404 when it does not exist for them. */
export async function visiblePostForReader(db: DB, postId: number, reader: NonNullable<Reader>): Promise<ReaderPostRow> {
  return visibleTo(await findPostForReader(db, postId, reader.id), reader);
}

/** The post as the reader sees it: with their own rating when signed in. */
export function postForReader(post: PostListRow | ReaderPostRow, reader: Reader): Post {
  const view = toPost(post);
  if (reader) view.user_rating = 'user_rating' in post ? post.user_rating : 0;
  return view;
}

/** Every post of an author, archived ones too, newest first. */
export async function allPostsOf(db: DB, authorId: number): Promise<Post[]> {
  return (await listAllAuthorPosts(db, authorId)).map(toPost);
}

export interface PostPage {
  posts: Post[];
  total: number;
}

/** A page of the posts matching `filter`, and how many match in all. */
export async function listPostPage(ctx: AppContext, filter: PostFilter, sort: PostSort, page: Page): Promise<PostPage> {
  const [rows, total] = await Promise.all([listPosts(ctx.db, filter, sort, page), countPosts(ctx.db, filter)]);
  return { posts: rows.map(toPost), total };
}

/** An author's page of posts; archived ones and drafts are for the author and admins only. */
export async function listAuthorPosts(
  ctx: AppContext, reader: Reader, authorId: number, filter: Omit<PostFilter, 'authorId'>, sort: PostSort, page: Page,
): Promise<PostPage> {
  await findUserOr404(ctx.db, authorId);
  const privileged = reader?.id === authorId || reader?.level === 'admin';
  if (filter.draft && !privileged) throw forbidden('Only the author can see their drafts');
  if (filter.archived && !privileged) throw forbidden('Only the author can see their archived articles');
  // A draft is never archived: its list is the range (author, draft, not archived) of one index.
  return listPostPage(ctx, { ...filter, ...(filter.draft ? { archived: false } : {}), authorId }, sort, page);
}

/** The Pulse's order: stored score or visits, best first. */
export async function listRanked(ctx: AppContext, filter: PostFilter, criteria: RankCriteria, page: Page): Promise<Post[]> {
  return (await listRankedPosts(ctx.db, filter, criteria, page)).map(toPost);
}

/** These posts in the order given, as lists show them; archived, draft or deleted ones left out. */
export async function listActivePostsByIds(db: DB, ids: readonly number[]): Promise<Post[]> {
  const rows = new Map((await findPostsByIds(db, [...ids])).map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = rows.get(id);
    return row && isListed(row) ? [toPost(row)] : [];
  });
}

export async function listNewest(ctx: AppContext, filter: PostFilter, page: Page): Promise<Post[]> {
  return (await listPosts(ctx.db, filter, 'newest', page)).map(toPost);
}
