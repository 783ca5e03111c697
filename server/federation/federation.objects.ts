// What a local account and a local article are to the fediverse (DESIGN.md, Actors and
// Articles): a Person and an Article, built from their rows, every address absolute.
import type { Context } from '@fedify/fedify';
import { Article, Collection, Endpoints, Hashtag, Image, Note, Person, PUBLIC_COLLECTION, Tombstone } from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import { storedHashtags } from '../../shared/articles.ts';
import { excerpt } from '../../shared/excerpt.ts';
import { htmlText } from '../../shared/html-text.ts';
import type { UserRow } from '../schema.ts';
import { uploadUrl } from '../uploads.ts';
import type { FederatedCommentRow, FederatedPostRow } from './federation.repo.ts';

/** An article's summary: its excerpt, as long as a card's (SPEC §9). */
const SUMMARY_LENGTH = 150;

/**
 * A time as Fedify's vocabulary takes it: the polyfill's Instant, which Fedify itself uses at run
 * time (Node has no Temporal yet), typed as the standard one its declarations name.
 */
export function instant(iso: string): globalThis.Temporal.Instant {
  return Temporal.Instant.from(iso) as unknown as globalThis.Temporal.Instant;
}

/** A length of time as Fedify takes it (the polyfill's Duration, as instant() says). */
export function duration(milliseconds: number): globalThis.Temporal.Duration {
  return Temporal.Duration.from({ milliseconds }) as unknown as globalThis.Temporal.Duration;
}

export function absolute(origin: string, path: string): URL {
  return new URL(path, origin);
}

export function actorIdentifier(userId: number): string {
  return String(userId);
}

export async function personOf(ctx: Context<unknown>, user: UserRow): Promise<Person> {
  const identifier = actorIdentifier(user.id);
  const keys = await ctx.getActorKeyPairs(identifier);
  const avatar = uploadUrl(user.avatar);
  return new Person({
    id: ctx.getActorUri(identifier),
    preferredUsername: user.username,
    name: user.username,
    summary: user.bio || null,
    url: absolute(ctx.origin, `/beatnik/${encodeURIComponent(user.username)}`),
    icon: avatar ? new Image({ url: absolute(ctx.origin, avatar) }) : null,
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    published: instant(user.created_at),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
  });
}

export function articleUri(ctx: Context<unknown>, postId: number): URL {
  return ctx.getObjectUri(Article, { id: String(postId) });
}

export function articleOf(ctx: Context<unknown>, post: FederatedPostRow): Article {
  const author = actorIdentifier(post.author_id);
  const image = uploadUrl(post.image);
  return new Article({
    id: articleUri(ctx, post.id),
    name: post.title,
    content: post.content_html,
    summary: excerpt(htmlText(post.content_html), SUMMARY_LENGTH),
    url: absolute(ctx.origin, `/post/${post.id}`),
    published: instant(post.created_at),
    updated: instant(post.updated_at),
    attribution: ctx.getActorUri(author),
    image: image ? new Image({ url: absolute(ctx.origin, image), name: post.image_alt || post.title }) : null,
    tags: storedHashtags(post.hashtags).map((tag) => new Hashtag({
      name: `#${tag}`,
      href: absolute(ctx.origin, `/ranks?hashtag=${encodeURIComponent(tag)}`),
    })),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(author),
    replies: new Collection({ totalItems: post.comments_count }),
  });
}

/** What stands at a removed article's address: 410, with when it went. */
export function tombstoneOf(ctx: Context<unknown>, postId: number, deletedAt: string): Tombstone {
  return new Tombstone({ id: articleUri(ctx, postId), deleted: instant(deletedAt) });
}

export function commentUri(ctx: Context<unknown>, commentId: number): URL {
  return ctx.getObjectUri(Note, { id: String(commentId) });
}

/** A local comment: a Note answering its article, so that a reply to it finds the article too. */
export function noteOf(ctx: Context<unknown>, comment: FederatedCommentRow): Note {
  return new Note({
    id: commentUri(ctx, comment.id),
    attribution: ctx.getActorUri(actorIdentifier(comment.author_id)),
    content: comment.content_html,
    replyTarget: articleUri(ctx, comment.post_id),
    url: absolute(ctx.origin, `/post/${comment.post_id}`),
    published: instant(comment.created_at),
    updated: instant(comment.updated_at),
    to: PUBLIC_COLLECTION,
  });
}
