// What each feed holds: the site's, an author's or a hashtag's 20 newest active articles, in the
// order of GET /api/posts, read in one query with their authors and tags (posts.service).
import { hashtagProblem, normalizeHashtag } from '../../shared/articles.ts';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { ImageStore } from '../images/image-store.ts';
import { listNewest, type PostFilter } from '../posts/posts.service.ts';
import type { Post } from '../posts/posts.view.ts';
import { UPLOADS_URL } from '../uploads.ts';
import { findUserByUsernameOr404 } from '../users/users.service.ts';
import { hashtagKnown } from './feeds.repo.ts';
import type { FeedPost, FeedSource } from './feeds.render.ts';
import { profilePath } from '../../shared/site.ts';
import { siteName } from '../site/site.service.ts';

export const HASHTAG_NOT_FOUND = 'Hashtag not found';
/** The first page of GET /api/posts. */
const FEED_SIZE = 20;

export async function siteFeed(ctx: AppContext): Promise<FeedSource> {
  const site = await siteName(ctx);
  return {
    title: site,
    description: `The newest articles on ${site}`,
    pagePath: '/',
    feedPath: '/feed',
    posts: await newest(ctx, {}),
  };
}

/** An author's feed, found by their name in any case (404 `User not found`). */
export async function authorFeed(ctx: AppContext, username: string): Promise<FeedSource> {
  const author = await findUserByUsernameOr404(ctx, username);
  const page = profilePath(author.username);
  const site = await siteName(ctx);
  return {
    title: `${author.username} · ${site}`,
    description: `The newest articles by ${author.username} on ${site}`,
    pagePath: page,
    feedPath: `${page}/feed`,
    author: author.username,
    posts: await newest(ctx, { authorId: author.id }),
  };
}

/**
 * A hashtag's feed, the tag cleaned as GET /api/posts?hashtag= cleans it (`#Jazz` is `jazz`). A
 * tag no article could carry, or none ever did, is a 404; one whose articles are all gone now
 * is an empty feed, so that its subscribers keep it until the tag is used again.
 */
export async function hashtagFeed(ctx: AppContext, raw: string): Promise<FeedSource> {
  const tag = normalizeHashtag(raw);
  if (tag === '' || hashtagProblem(tag) !== undefined) throw notFound(HASHTAG_NOT_FOUND);
  const posts = await newest(ctx, { hashtag: tag });
  if (posts.length === 0 && !await hashtagKnown(ctx.db, tag)) throw notFound(HASHTAG_NOT_FOUND);
  const site = await siteName(ctx);
  return {
    title: `#${tag} · ${site}`,
    description: `The newest articles tagged #${tag} on ${site}`,
    // The hashtag's page in the client is The Pulse filtered by it.
    pagePath: `/ranks?hashtag=${encodeURIComponent(tag)}`,
    feedPath: `/hashtag/${encodeURIComponent(tag)}/feed`,
    posts,
  };
}

async function newest(ctx: AppContext, filter: Omit<PostFilter, 'archived'>): Promise<FeedPost[]> {
  const posts = await listNewest(ctx, { ...filter, archived: false }, { skip: 0, limit: FEED_SIZE });
  return Promise.all(posts.map(async (post) => ({ post, imageBytes: await imageBytes(ctx.images, post) })));
}

/**
 * Sizes of images already asked for, per store. A stored image never changes (names are random
 * and never reused), so a size is asked of the store once: on S3 that is a request per image.
 */
const knownSizes = new WeakMap<ImageStore, Map<string, number>>();
const KNOWN_SIZES_MAX = 10_000;

async function imageBytes(store: ImageStore, post: Post): Promise<number | undefined> {
  if (post.image === null) return undefined;
  const name = post.image.slice(UPLOADS_URL.length + 1);
  let sizes = knownSizes.get(store);
  if (!sizes) knownSizes.set(store, sizes = new Map());
  const known = sizes.get(name);
  if (known !== undefined) return known;
  const size = await store.size(name);
  if (size === undefined) return undefined;
  if (sizes.size >= KNOWN_SIZES_MAX) sizes.delete(sizes.keys().next().value!);
  sizes.set(name, size);
  return size;
}
