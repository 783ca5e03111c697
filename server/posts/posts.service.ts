// Articles: publishing, editing, archiving, deleting and reading, with every counter they move.
import { transaction, withConnection, type Connection } from '../connection.ts';
import type { AppContext } from '../context.ts';
import type { DB } from '../db.ts';
import { nowIso } from '../db.ts';
import { forbidden, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { removeImage, storeImage } from '../images/images.ts';
import { rankScore } from '../ranks/ranks.score.ts';
import { findUserRating } from '../ratings/ratings.repo.ts';
import type { UserRow } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.repo.ts';
import { parsePostInput } from './posts.input.ts';
import {
  adjustHashtagCounts, countCommentsByOthers, deletePostRow, findPostById, insertPost, isVisitDue, linkHashtags,
  recordVisit, unlinkHashtags, updatePostRow, type PostListRow,
} from './posts.repo.ts';
import { toPost, type Post } from './posts.view.ts';

export const ARTICLE_NOT_FOUND = 'Article not found';
const VISIT_WINDOW_MS = 30 * 60_000;

type Reader = Pick<UserRow, 'id' | 'level'> | undefined;

/** Archived articles exist only for their author and for admins. */
export function canSee(post: Pick<PostListRow, 'archived' | 'author_id'>, reader: Reader): boolean {
  return post.archived === 0 || reader?.id === post.author_id || reader?.level === 'admin';
}

export function visiblePost(conn: Connection, postId: number, reader: Reader): PostListRow {
  const post = findPostById(conn, postId);
  if (!post || !canSee(post, reader)) throw notFound(ARTICLE_NOT_FOUND);
  return post;
}

export function findVisiblePost(ctx: AppContext, postId: number, reader: Reader): Promise<PostListRow> {
  return withConnection(ctx, (conn) => visiblePost(conn, postId, reader));
}

/** The post as its author may change it: 404 when invisible, 403 when someone else's. */
async function findOwnPost(ctx: AppContext, postId: number, user: UserRow, detail: string): Promise<PostListRow> {
  const post = await findVisiblePost(ctx, postId, user);
  if (post.author_id !== user.id) throw forbidden(detail);
  return post;
}

export function postForReader(conn: Connection, post: PostListRow, reader: Reader): Post {
  const view = toPost(post);
  if (reader) view.user_rating = findUserRating(conn, post.id, reader.id);
  return view;
}

/** The post as stored now, as the reader sees it. */
export function reloadPost(conn: Connection, postId: number, reader: Reader): Post {
  const post = findPostById(conn, postId);
  if (!post) throw notFound(ARTICLE_NOT_FOUND);
  return postForReader(conn, post, reader);
}

function reload(ctx: AppContext, postId: number, reader: Reader): Promise<Post> {
  return withConnection(ctx, (conn) => reloadPost(conn, postId, reader));
}

/**
 * An active post counts toward its author's posts, visits, ratings and comments received, and
 * toward its hashtags' counts; archiving or deleting it takes all of that away, unarchiving
 * gives it back.
 */
async function setPostCounted(trx: DB, conn: Connection, post: PostListRow, tags: string[], delta: 1 | -1): Promise<void> {
  const commentsByOthers = await countCommentsByOthers(trx, post.id, post.author_id);
  adjustAuthorStats(conn, post.author_id, {
    posts: delta,
    visits: delta * post.visits,
    ratingsCount: delta * post.ratings_count,
    ratingsSum: delta * post.ratings_sum,
    comments: delta * commentsByOthers,
  });
  await adjustHashtagCounts(trx, tags, delta);
}

/** Stores an uploaded image, runs `write`, and removes whichever file is no longer needed. */
async function withImage<T>(
  ctx: AppContext, file: Express.Multer.File | undefined,
  write: (image: string | undefined) => Promise<{ result: T; replaced?: string | null }>,
): Promise<T> {
  // sharp runs before the transaction: never hold the single connection across it.
  const image = file ? await storeImage(ctx.config.dataDir, 'article', file.buffer) : undefined;
  try {
    const { result, replaced } = await write(image);
    if (replaced) await removeImage(ctx.config.dataDir, replaced);
    return result;
  } catch (err) {
    await removeImage(ctx.config.dataDir, image);
    throw err;
  }
}

export async function createPost(
  ctx: AppContext, author: UserRow, body: Body, file: Express.Multer.File | undefined,
): Promise<Post> {
  const input = parsePostInput(body);
  const postId = await withImage(ctx, file, async (image) => ({
    result: await transaction(ctx, async (trx, conn) => {
      const createdAt = nowIso();
      const id = await insertPost(trx, {
        author_id: author.id, title: input.title, content: input.content, image: image ?? null,
        hashtags: input.hashtags, created_at: createdAt,
      });
      await linkHashtags(trx, id, input.hashtags);
      await adjustHashtagCounts(trx, input.hashtags, 1);
      adjustAuthorStats(conn, author.id, { posts: 1 });
      // A new post ranks at once; the periodic refresh recomputes everyone later.
      const score = rankScore({ visits: 0, ratingsCount: 0, ratingsSum: 0, comments: 0, createdAt }, Date.now());
      await trx.insertInto('post_ranks').values({ post_id: id, score, computed_at: createdAt }).execute();
      return id;
    }),
  }));
  return reload(ctx, postId, author);
}

export async function updatePost(
  ctx: AppContext, user: UserRow, postId: number, body: Body, file: Express.Multer.File | undefined,
): Promise<Post> {
  const before = await findOwnPost(ctx, postId, user, 'You can only edit your own articles');
  const input = parsePostInput(body);
  const removeCurrent = body.remove_image === 'true' || body.remove_image === true;
  await withImage(ctx, file, async (image) => {
    await transaction(ctx, async (trx, conn) => {
      // Re-read inside the transaction: the tags to adjust are the ones stored now.
      const current = findPostById(conn, postId);
      if (!current) throw notFound(ARTICLE_NOT_FOUND);
      const oldTags = toPost(current).hashtags;
      const added = input.hashtags.filter((t) => !oldTags.includes(t));
      const removed = oldTags.filter((t) => !input.hashtags.includes(t));
      await unlinkHashtags(trx, postId, removed);
      await linkHashtags(trx, postId, added);
      if (current.archived === 0) {
        await adjustHashtagCounts(trx, removed, -1);
        await adjustHashtagCounts(trx, added, 1);
      }
      await updatePostRow(trx, postId, {
        title: input.title, content: input.content, hashtags: input.hashtags, updated_at: nowIso(),
        ...(image !== undefined ? { image } : removeCurrent ? { image: null } : {}),
      });
    });
    const replaced = image !== undefined || removeCurrent ? before.image : null;
    return { result: undefined, replaced };
  });
  return reload(ctx, postId, user);
}

export async function toggleArchive(ctx: AppContext, user: UserRow, postId: number): Promise<{ message: string; archived: boolean }> {
  const post = await findVisiblePost(ctx, postId, user);
  if (post.author_id !== user.id && user.level !== 'admin') throw forbidden('You can only archive your own articles');
  const archived = await transaction(ctx, async (trx, conn) => {
    const current = findPostById(conn, postId);
    if (!current) throw notFound(ARTICLE_NOT_FOUND);
    const nowArchived = current.archived === 0;
    await updatePostRow(trx, postId, { archived: nowArchived ? 1 : 0 });
    await setPostCounted(trx, conn, current, toPost(current).hashtags, nowArchived ? -1 : 1);
    return nowArchived;
  });
  return {
    message: archived ? 'Article archived successfully' : 'Article unarchived successfully',
    archived,
  };
}

/**
 * Deletes a post with its ratings, comments, rank and image; `alsoInTransaction` records what
 * else must happen with it (an admin's notification and log). Returns the deleted row.
 */
export async function removePost(
  ctx: AppContext, postId: number,
  alsoInTransaction?: (trx: DB, conn: Connection, post: PostListRow) => Promise<void>,
): Promise<PostListRow> {
  const deleted = await transaction(ctx, async (trx, conn) => {
    const post = findPostById(conn, postId);
    if (!post) throw notFound(ARTICLE_NOT_FOUND);
    if (post.archived === 0) await setPostCounted(trx, conn, post, toPost(post).hashtags, -1);
    await deletePostRow(trx, postId); // ratings, comments, tags, rank and visits cascade
    await alsoInTransaction?.(trx, conn, post);
    return post;
  });
  await removeImage(ctx.config.dataDir, deleted.image);
  return deleted;
}

export async function deleteOwnPost(ctx: AppContext, user: UserRow, postId: number): Promise<void> {
  await findOwnPost(ctx, postId, user, 'You can only delete your own articles');
  await removePost(ctx, postId);
}

/**
 * Reading an article counts a visit: once per reader per post per 30 minutes, never the
 * author's own reads, and never on archived posts.
 */
export async function readPost(ctx: AppContext, postId: number, reader: Reader, visitor: string): Promise<Post> {
  // A visit leaves the cached lists alone: their visit counts may lag by the cache's 5 s, while
  // emptying the cache at every read would make busy lists miss it all the time.
  return withConnection(ctx, (conn) => {
    const row = visiblePost(conn, postId, reader);
    const counted = row.archived === 0 && reader?.id !== row.author_id && countVisit(conn, row, visitor);
    if (counted) row.visits += 1;
    return postForReader(conn, row, reader);
  });
}

/** Checked before writing: a repeat read opens no write transaction (the connection is ours throughout). */
function countVisit(conn: Connection, post: PostListRow, visitor: string): boolean {
  const now = Date.now();
  if (!isVisitDue(conn, post.id, visitor, new Date(now - VISIT_WINDOW_MS).toISOString())) return false;
  conn.atomically(() => {
    recordVisit(conn, post.id, visitor, new Date(now).toISOString());
    adjustAuthorStats(conn, post.author_id, { visits: 1 });
  });
  return true;
}
