// Articles: publishing, drafts, editing, archiving, deleting and reading, with every counter they move.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { conflict, forbidden, HttpError, notFound } from '../errors.ts';
import type { Body, Page } from '../http.ts';
import { removeImage, storeImage } from '../images/images.ts';
import { STORAGE_UNAVAILABLE } from '../images/image-store.ts';
import { clientLeft } from '../images/upload.ts';
import { rankNewPost, unrankAuthorPosts, unrankPost } from '../ranks/ranks.service.ts';
import { indexPosts } from '../search-index/search-index.service.ts';
import type { DB, PostRow, PostStatus, UserRow } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import { findUserOr404 } from '../users/users.service.ts';
import { draftFlag, parseDraftInput, parsePostInput, parsePublishInput, type PostInput } from './posts.input.ts';
import {
  adjustHashtagCounts, countCommentsByOthers, countPosts, deleteAuthorPosts, deletePostRow, deleteVisitsBy, findLastVisit,
  findArticle, findPostById, findPostsByIds, findPostForReader, starCountsOf, insertPost, linkHashtags, listAllAuthorPosts, listAuthorImages,
  listPosts, listRankedPosts, publishDraftRow, recordVisit, subtractAuthorHashtags, unlinkHashtags, updatePostRow,
  type PostFilter, type PostListRow, type PostSort, type RankCriteria, type ReaderPostRow,
} from './posts.repo.ts';
import { userVisitor } from './posts.visitors.ts';
import { toPost, type Post } from './posts.view.ts';

export type { PostFilter, PostSort, RankCriteria, ReaderPostRow };
export { POST_SORTS } from './posts.repo.ts';

export const ARTICLE_NOT_FOUND = 'Article not found';
const VISIT_WINDOW_MS = 30 * 60_000;

type Reader = Pick<UserRow, 'id' | 'level'> | undefined;

export const ALREADY_PUBLISHED = 'This article is already published';

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

/** The post with the signed-in reader's own rating; without a reader, the post alone. */
function findPostAs(db: DB, postId: number, reader: Reader): Promise<PostListRow | ReaderPostRow | undefined> {
  return reader ? findPostForReader(db, postId, reader.id) : findPostById(db, postId);
}

/** The post as stored, or 404 when it does not exist for this reader. */
export async function visiblePost(db: DB, postId: number, reader: Reader): Promise<PostListRow> {
  return visibleTo(await findPostById(db, postId), reader);
}

/** The post as its author may change it: 404 when invisible, 403 when someone else's. */
async function findOwnPost(ctx: AppContext, postId: number, user: UserRow, detail: string): Promise<PostListRow> {
  const post = await visiblePost(ctx.db, postId, user);
  if (post.author_id !== user.id) throw forbidden(detail);
  return post;
}

/** The post with the signed-in reader's own rating, or 404 when it does not exist for them. */
export async function visiblePostForReader(db: DB, postId: number, reader: NonNullable<Reader>): Promise<ReaderPostRow> {
  return visibleTo(await findPostForReader(db, postId, reader.id), reader);
}

function postForReader(post: PostListRow | ReaderPostRow, reader: Reader): Post {
  const view = toPost(post);
  if (reader) view.user_rating = 'user_rating' in post ? post.user_rating : 0;
  return view;
}

/** The post as stored now, as the reader sees it. */
async function reloadPost(db: DB, postId: number, reader: Reader): Promise<Post> {
  const post = await findPostAs(db, postId, reader);
  if (!post) throw notFound(ARTICLE_NOT_FOUND);
  return postForReader(post, reader);
}

/**
 * A listed post counts toward its author's posts, visits, ratings and comments received, and
 * toward its hashtags' counts; archiving or deleting it takes all of that away, unarchiving
 * gives it back.
 */
async function setPostCounted(trx: DB, post: PostListRow, tags: string[], delta: 1 | -1): Promise<void> {
  const commentsByOthers = await countCommentsByOthers(trx, post.id, post.author_id);
  await adjustAuthorStats(trx, post.author_id, {
    posts: delta,
    visits: delta * post.visits,
    ratingsCount: delta * post.ratings_count,
    ratingsSum: delta * post.ratings_sum,
    comments: delta * commentsByOthers,
  }, { cause: 'post_removed', at: nowIso(), postId: post.id });
  await adjustHashtagCounts(trx, tags, delta);
}

/** Stores an uploaded image, runs `write`, and removes whichever file is no longer needed. */
async function withImage<T>(
  ctx: AppContext, file: Express.Multer.File | undefined,
  write: (image: string | undefined) => Promise<{ result: T; replaced?: string | null }>,
): Promise<T> {
  // sharp runs before the transaction: never hold the single connection across it.
  const image = file ? await storeImage(ctx.images, 'article', file.buffer) : undefined;
  if (image && clientLeft(file!)) {
    // Stored too late for a client that gave up: publishing now would duplicate its retry.
    ctx.log.info({ image }, 'an upload whose client left before its image was stored is not published');
    await removeImage(ctx.images, image);
    throw new HttpError(503, STORAGE_UNAVAILABLE);
  }
  try {
    const { result, replaced } = await write(image);
    if (replaced) await removeImage(ctx.images, replaced);
    return result;
  } catch (err) {
    await removeImage(ctx.images, image);
    throw err;
  }
}

/** Publishes an article, or with `draft=true` saves a draft, which counts nowhere yet. */
export async function createPost(
  ctx: AppContext, author: UserRow, body: Body, file: Express.Multer.File | undefined,
): Promise<Post> {
  const status: PostStatus = draftFlag(body) ? 'draft' : 'published';
  const input = status === 'draft' ? parseDraftInput(body) : parsePostInput(body);
  const postId = await withImage(ctx, file, async (image) => ({
    result: await ctx.db.transaction().execute(async (trx) => {
      const createdAt = nowIso();
      const id = await insertPost(trx, {
        author_id: author.id, status, title: input.title, content: input.content, image: image ?? null,
        hashtags: input.hashtags, created_at: createdAt,
      });
      await linkHashtags(trx, id, input.hashtags);
      if (status === 'published') {
        await indexPosts(trx, [id]);
        await adjustHashtagCounts(trx, input.hashtags, 1);
        await adjustAuthorStats(trx, author.id, { posts: 1 });
        await rankNewPost(trx, id, createdAt);
      }
      return id;
    }),
  }));
  return reloadPost(ctx.db, postId, author);
}

/** An edit as the post's status takes it: a draft stays a draft, with a draft's rules. */
function editInput(status: PostStatus, body: Body): PostInput {
  return status === 'draft' ? parseDraftInput(body) : parsePostInput(body);
}

/** Links the post to `tags` in place of the ones it has; a counted post's tag counts follow. */
async function retag(trx: DB, post: PostListRow, tags: string[], counted = isListed(post)): Promise<void> {
  const oldTags = toPost(post).hashtags;
  const added = tags.filter((t) => !oldTags.includes(t));
  const removed = oldTags.filter((t) => !tags.includes(t));
  await unlinkHashtags(trx, post.id, removed);
  await linkHashtags(trx, post.id, added);
  if (counted) {
    await adjustHashtagCounts(trx, removed, -1);
    await adjustHashtagCounts(trx, added, 1);
  }
}

const removeImageAsked = (body: Body) => body.remove_image === 'true' || body.remove_image === true;

export async function updatePost(
  ctx: AppContext, user: UserRow, postId: number, body: Body, file: Express.Multer.File | undefined,
): Promise<Post> {
  const before = await findOwnPost(ctx, postId, user, 'You can only edit your own articles');
  // Checked before the image is stored, and again below should the draft have been published meanwhile.
  let input = editInput(before.status, body);
  const removeCurrent = removeImageAsked(body);
  await withImage(ctx, file, async (image) => {
    await ctx.db.transaction().execute(async (trx) => {
      // Re-read inside the transaction: the tags to adjust are the ones stored now.
      const current = await findPostById(trx, postId);
      if (!current) throw notFound(ARTICLE_NOT_FOUND);
      if (current.status !== before.status) input = editInput(current.status, body);
      // Written only while the status is the one read: a draft published meanwhile (PostgreSQL
      // lets the two run at once) is not given a draft's content.
      const written = await updatePostRow(trx, postId, {
        title: input.title, content: input.content, hashtags: input.hashtags, updated_at: nowIso(),
        ...(image !== undefined ? { image } : removeCurrent ? { image: null } : {}),
      }, { status: current.status });
      if (!written) throw conflict(ALREADY_PUBLISHED);
      await retag(trx, current, input.hashtags);
      await indexPosts(trx, [postId]);
    });
    const replaced = image !== undefined || removeCurrent ? before.image : null;
    return { result: undefined, replaced };
  });
  return reloadPost(ctx.db, postId, user);
}

/**
 * POST /api/posts/:id/publish: the author's draft, with the form's changes if sent, checked by
 * every rule of SPEC §5 and published now (created_at is the publication time); from then on it
 * counts like any new article: author and hashtag counters, mojo, ranking, search, lists, feeds.
 */
export async function publishDraft(
  ctx: AppContext, user: UserRow, postId: number, body: Body, file: Express.Multer.File | undefined,
): Promise<Post> {
  const before = await findOwnPost(ctx, postId, user, 'You can only publish your own articles');
  if (before.status !== 'draft') throw conflict(ALREADY_PUBLISHED);
  parsePublishInput(storedInput(before), body); // refused before the image is stored
  const removeCurrent = removeImageAsked(body);
  await withImage(ctx, file, async (image) => {
    await ctx.db.transaction().execute(async (trx) => {
      const at = nowIso();
      // Claimed first, so that of two publications at once only one goes on.
      if (!await publishDraftRow(trx, postId, at)) {
        if (!await findPostById(trx, postId)) throw notFound(ARTICLE_NOT_FOUND);
        throw conflict(ALREADY_PUBLISHED);
      }
      const current = (await findPostById(trx, postId))!;
      const input = parsePublishInput(storedInput(current), body);
      await retag(trx, current, input.hashtags, false); // counted with the rest just below
      await updatePostRow(trx, postId, {
        title: input.title, content: input.content, hashtags: input.hashtags,
        ...(image !== undefined ? { image } : removeCurrent ? { image: null } : {}),
      });
      await setPostCounted(trx, current, input.hashtags, 1);
      await rankNewPost(trx, postId, at);
      await indexPosts(trx, [postId]);
    });
    return { result: undefined, replaced: image !== undefined || removeCurrent ? before.image : null };
  });
  return reloadPost(ctx.db, postId, user);
}

function storedInput(post: PostListRow): PostInput {
  return { title: post.title, content: post.content, hashtags: toPost(post).hashtags };
}

export async function toggleArchive(ctx: AppContext, user: UserRow, postId: number): Promise<{ message: string; archived: boolean }> {
  const post = await visiblePost(ctx.db, postId, user);
  if (post.author_id !== user.id && user.level !== 'admin') throw forbidden('You can only archive your own articles');
  if (post.status === 'draft') throw conflict('A draft cannot be archived: publish it or delete it');
  const archived = await ctx.db.transaction().execute(async (trx) => {
    const current = await findPostById(trx, postId);
    if (!current) throw notFound(ARTICLE_NOT_FOUND);
    const nowArchived = current.archived === 0;
    await updatePostRow(trx, postId, { archived: nowArchived ? 1 : 0 });
    await indexPosts(trx, [postId]);
    await setPostCounted(trx, current, toPost(current).hashtags, nowArchived ? -1 : 1);
    return nowArchived;
  });
  return {
    message: archived ? 'Article archived successfully' : 'Article unarchived successfully',
    archived,
  };
}

/**
 * Deletes a post with its ratings, comments, rank and image; `alsoInTransaction` does what else
 * must happen with it (an admin's notification, log and closed reports), before the row goes.
 * Returns the deleted row.
 */
export async function removePost(
  ctx: AppContext, postId: number,
  alsoInTransaction?: (trx: DB, post: PostListRow) => Promise<void>,
): Promise<PostListRow> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const post = await findPostById(trx, postId);
    if (!post) throw notFound(ARTICLE_NOT_FOUND);
    if (isListed(post)) await setPostCounted(trx, post, toPost(post).hashtags, -1);
    await unrankPost(trx, postId);
    await alsoInTransaction?.(trx, post);
    // Ratings, comments, tags, rank, visits and the search index's entry cascade.
    await deletePostRow(trx, postId);
    return post;
  });
  await removeImage(ctx.images, deleted.image);
  return deleted;
}

/**
 * Deletes every post of an author inside the caller's transaction (their account is being
 * removed), as removePost deletes one: the hashtags' counts and the ranking's order move, ratings,
 * comments, tags, rank, visits and search entries cascade. The author's own counters are left:
 * the account goes with them. Nobody else's counters depend on the author's posts. Returns the
 * names of the posts' images, for the caller to remove once the transaction has committed.
 */
export async function removeAuthorPosts(trx: DB, authorId: number): Promise<string[]> {
  const images = await listAuthorImages(trx, authorId);
  await subtractAuthorHashtags(trx, authorId);
  await unrankAuthorPosts(trx, authorId);
  await deleteAuthorPosts(trx, authorId);
  return images;
}

/** Forgets a removed account's recent reads; the visits they counted stay counted, as a visitor's. */
export function forgetReaderVisits(trx: DB, userId: number): Promise<void> {
  return deleteVisitsBy(trx, userVisitor(userId));
}

/** Every post of an author, archived ones too, newest first. */
export async function allPostsOf(db: DB, authorId: number): Promise<Post[]> {
  return (await listAllAuthorPosts(db, authorId)).map(toPost);
}

export async function deleteOwnPost(ctx: AppContext, user: UserRow, postId: number): Promise<void> {
  await findOwnPost(ctx, postId, user, 'You can only delete your own articles');
  await removePost(ctx, postId);
}

/**
 * Reading an article counts a visit: once per reader per post per 30 minutes, never the
 * author's own reads, and never on archived posts or drafts.
 */
export async function readPost(ctx: AppContext, postId: number, reader: Reader, visitor: string): Promise<Post> {
  // A visit leaves the cached lists alone: their visit counts may lag by the cache's 5 s, while
  // emptying the cache at every read would make busy lists miss it all the time.
  const row = visibleTo(await findArticle(ctx.db, postId, reader?.id), reader);
  const counted = isListed(row) && reader?.id !== row.author_id && await countVisit(ctx, row, visitor);
  if (counted) row.visits += 1;
  return { ...postForReader(row, reader), rating_histogram: starCountsOf(row) };
}

/**
 * A visitor's read of an active article whose page the server rendered earlier and serves from
 * its cache (server/pages/): counted as readPost counts a visitor's.
 */
export async function countVisitorRead(ctx: AppContext, post: Pick<PostListRow, 'id' | 'author_id'>, visitor: string): Promise<void> {
  await countVisit(ctx, post, visitor);
}

/** The databases whose last visit could not be recorded: the failure is logged once, not per reader. */
const visitsFailing = new WeakSet<DB>();

/**
 * A repeat read is found before writing, so it opens no write transaction. A visit that cannot
 * be written (a full disk, a database gone read-only) is lost, not the reader's article: logged
 * when it starts happening and when visits count again.
 */
async function countVisit(ctx: AppContext, post: Pick<PostListRow, 'id' | 'author_id'>, visitor: string): Promise<boolean> {
  const { db } = ctx;
  const now = Date.now();
  const cutoff = new Date(now - VISIT_WINDOW_MS).toISOString();
  const last = await findLastVisit(db, post.id, visitor);
  if (last !== undefined && last >= cutoff) return false;
  try {
    const counted = await db.transaction().execute(async (trx) => {
      if (!await recordVisit(trx, post.id, visitor, new Date(now).toISOString(), cutoff)) return false;
      // The reader is never named in the ledger (DESIGN.md, Transparency).
      await adjustAuthorStats(trx, post.author_id, { visits: 1 }, { cause: 'visits', at: new Date(now).toISOString(), postId: post.id });
      return true;
    });
    if (visitsFailing.delete(db)) ctx.log.info('visits are counted again');
    return counted;
  } catch (err) {
    if (!visitsFailing.has(db)) ctx.log.error({ err }, 'visits cannot be counted: the database cannot be written');
    visitsFailing.add(db);
    return false;
  }
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
