// Changing articles: publishing, drafts, editing, archiving and deleting, with every counter they move.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { conflict, forbidden, HttpError, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { removeImage, storeImage } from '../images/images.ts';
import { STORAGE_UNAVAILABLE } from '../images/image-store.ts';
import { clientLeft } from '../images/upload.ts';
import { mentionedNamesOf, renderText, type RenderedText } from '../markdown/markdown.service.ts';
import { notifyMentions } from '../notifications/mentions.ts';
import { rankNewPost, unrankAuthorPosts, unrankPost } from '../ranks/ranks.service.ts';
import { indexPosts } from '../search-index/search-index.service.ts';
import type { DB, PostStatus, UserRow } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import { requireVerifiedEmail } from '../users/users.verified.ts';
import { brakeNewAccount } from '../new-accounts/new-accounts.service.ts';
import { queueArticleActivity } from '../federation-outgoing/federation-outgoing.service.ts';
import { draftFlag, parseDraftInput, parsePostInput, parsePublishInput, type PostInput } from './posts.input.ts';
import { findPostById, findPostForReader, type PostListRow, type ReaderPostRow } from './posts.repo.ts';
import {
  adjustHashtagCounts, countCommentsByOthers, deleteAuthorPosts, deletePostRow, insertPost, linkHashtags, listAuthorImages,
  publishDraftRow, subtractAuthorHashtags, unlinkHashtags, updatePostRow,
} from './posts.write.repo.ts';
import { ARTICLE_NOT_FOUND, isListed, postForReader, visiblePost, type Reader } from './posts.service.ts';
import { toPost, type Post } from './posts.view.ts';
import { readingMinutes } from '../../shared/reading.ts';

export const ALREADY_PUBLISHED = 'This article is already published';

/** The post with the signed-in reader's own rating; without a reader, the post alone. */
function findPostAs(db: DB, postId: number, reader: Reader): Promise<PostListRow | ReaderPostRow | undefined> {
  return reader ? findPostForReader(db, postId, reader.id) : findPostById(db, postId);
}

/** The post as its author may change it: 404 when invisible, 403 when someone else's. */
async function findOwnPost(ctx: AppContext, postId: number, user: UserRow, detail: string): Promise<PostListRow> {
  const post = await visiblePost(ctx.db, postId, user);
  if (post.author_id !== user.id) throw forbidden(detail);
  return post;
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

/** The columns a content's rendering fills (DESIGN.md, Writing). */
function renderedColumns(rendered: RenderedText): { content_html: string; reading_minutes: number } {
  return { content_html: rendered.html, reading_minutes: readingMinutes(rendered.text) };
}

/** The picture and its alt text as an edit leaves them: a removed picture takes its alt text along. */
function imageColumns(image: string | undefined, removeCurrent: boolean, imageAlt: string | undefined) {
  if (image !== undefined) return { image, ...(imageAlt !== undefined ? { image_alt: imageAlt } : {}) };
  if (removeCurrent) return { image: null, image_alt: '' };
  return imageAlt !== undefined ? { image_alt: imageAlt } : {};
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
  // A draft is one's own; publishing waits for a verified address.
  if (status === 'published') requireVerifiedEmail(ctx.config, author);
  const input = status === 'draft' ? parseDraftInput(body) : parsePostInput(body);
  const rendered = await renderText(ctx, input.content);
  const postId = await withImage(ctx, file, async (image) => ({
    result: await ctx.db.transaction().execute(async (trx) => {
      if (status === 'published') await brakeNewAccount(trx, ctx.config, author, 'articles');
      const createdAt = nowIso();
      const id = await insertPost(trx, {
        author_id: author.id, status, title: input.title, content: input.content, ...renderedColumns(rendered),
        image: image ?? null, image_alt: input.imageAlt ?? '', hashtags: input.hashtags, created_at: createdAt,
      });
      await linkHashtags(trx, id, input.hashtags);
      if (status === 'published') {
        await queueArticleActivity(trx, ctx.config, { id, authorId: author.id }, 'create');
        await indexPosts(trx, [id]);
        await adjustHashtagCounts(trx, input.hashtags, 1);
        await adjustAuthorStats(trx, author.id, { posts: 1 });
        await rankNewPost(trx, id, createdAt);
        await notifyMentions(trx, { writer: author, mentioned: rendered.mentioned, post: { id, title: input.title }, mail: ctx.config.mail !== null });
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
  const rendered = await renderText(ctx, input.content);
  // Parsed outside the write transaction (SQLite's only writer waits for nothing it need not).
  const mentionedBefore = mentionedNamesOf(before.content);
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
        title: input.title, content: input.content, ...renderedColumns(rendered), hashtags: input.hashtags, updated_at: nowIso(),
        ...imageColumns(image, removeCurrent, input.imageAlt),
      }, { status: current.status });
      if (!written) throw conflict(ALREADY_PUBLISHED);
      await retag(trx, current, input.hashtags);
      await indexPosts(trx, [postId]);
      if (current.status === 'published') {
        await notifyMentions(trx, {
          writer: user, mentioned: rendered.mentioned, post: { id: postId, title: input.title }, mail: ctx.config.mail !== null,
          // Parsed again only should another edit have landed since the read above.
          before: current.content === before.content ? mentionedBefore : mentionedNamesOf(current.content),
        });
      }
      // The fediverse has only what is listed: an archived article is a Tombstone there.
      if (isListed(current)) await queueArticleActivity(trx, ctx.config, { id: postId, authorId: current.author_id }, 'update');
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
  requireVerifiedEmail(ctx.config, user);
  const before = await findOwnPost(ctx, postId, user, 'You can only publish your own articles');
  if (before.status !== 'draft') throw conflict(ALREADY_PUBLISHED);
  const checked = parsePublishInput(storedInput(before), body); // refused before the image is stored
  let rendered = await renderText(ctx, checked.content);
  const removeCurrent = removeImageAsked(body);
  await withImage(ctx, file, async (image) => {
    await ctx.db.transaction().execute(async (trx) => {
      await brakeNewAccount(trx, ctx.config, user, 'articles');
      const at = nowIso();
      // Claimed first, so that of two publications at once only one goes on.
      if (!await publishDraftRow(trx, postId, at)) {
        if (!await findPostById(trx, postId)) throw notFound(ARTICLE_NOT_FOUND);
        throw conflict(ALREADY_PUBLISHED);
      }
      const current = (await findPostById(trx, postId))!;
      const input = parsePublishInput(storedInput(current), body);
      // The draft's stored content, should it have changed since it was read above.
      if (input.content !== checked.content) rendered = await renderText({ db: trx, config: ctx.config }, input.content);
      await retag(trx, current, input.hashtags, false); // counted with the rest just below
      await updatePostRow(trx, postId, {
        title: input.title, content: input.content, ...renderedColumns(rendered), hashtags: input.hashtags,
        ...imageColumns(image, removeCurrent, input.imageAlt),
      });
      await setPostCounted(trx, current, input.hashtags, 1);
      await rankNewPost(trx, postId, at);
      await indexPosts(trx, [postId]);
      // A draft told nobody: its mentions are all news now.
      await notifyMentions(trx, { writer: user, mentioned: rendered.mentioned, post: { id: postId, title: input.title }, mail: ctx.config.mail !== null });
      await queueArticleActivity(trx, ctx.config, { id: postId, authorId: current.author_id }, 'create');
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
    // Archived: gone from the fediverse (a Tombstone at its address); unarchived: there again.
    await queueArticleActivity(trx, ctx.config, { id: postId, authorId: current.author_id }, nowArchived ? 'delete' : 'create');
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
    if (isListed(post)) {
      await setPostCounted(trx, post, toPost(post).hashtags, -1);
      // A draft never left; an archived article's Delete went when it was archived.
      await queueArticleActivity(trx, ctx.config, { id: postId, authorId: post.author_id }, 'delete');
    }
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

export async function deleteOwnPost(ctx: AppContext, user: UserRow, postId: number): Promise<void> {
  await findOwnPost(ctx, postId, user, 'You can only delete your own articles');
  await removePost(ctx, postId);
}
