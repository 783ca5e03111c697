// A feed as RSS 2.0, Atom 1.0 or JSON Feed 1.1, written by the `feed` package, with every link
// absolute from PUBLIC_URL. Where the package falls short of a format, the fix is here and says so.
import type { Item } from 'feed';
import { hashtagProblem, pictureAlt } from '../../shared/articles.ts';
import { excerpt } from '../../shared/excerpt.ts';
import type { DocumentSource } from '../cache/document-cache.ts';
import { IMAGE_CONTENT_TYPE } from '../images/image-store.ts';
import type { Post } from '../posts/posts.view.ts';
import { escapeMarkup } from '../markup.ts';
import { feedHtml, forCdata, xmlText } from './feeds.text.ts';
import { htmlText } from '../../shared/html-text.ts';
import { profilePath } from '../../shared/site.ts';

export type FeedFormat = 'rss' | 'atom' | 'json';

/** Each format's file name (after the feed's path) and media type. */
export const FEED_FILES: ReadonlyMap<string, FeedFormat> = new Map([
  ['feed.xml', 'rss'], ['feed.atom', 'atom'], ['feed.json', 'json'],
]);
const EXTENSIONS: Record<FeedFormat, string> = { rss: 'xml', atom: 'atom', json: 'json' };
const MEDIA_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

/** The front page's teaser length: the summary a reader lists before opening an article. */
const SUMMARY_LENGTH = 200;

export interface FeedPost {
  post: Post;
  /** The image's size in bytes, when the store could tell. */
  imageBytes?: number;
}

export interface FeedSource {
  title: string;
  description: string;
  /** From the site's root: the page the feed follows (`/beatnik/ana`). */
  pagePath: string;
  /** From the site's root, without the format's extension (`/beatnik/ana/feed`). */
  feedPath: string;
  /** An author's own feed names them once for the whole feed. */
  author?: string;
  /** Newest first. */
  posts: FeedPost[];
}

/** The `feed` package, loaded with the first feed asked for: a server nobody reads by feed never holds it. */
let feedModule: Promise<typeof import('feed')> | undefined;

export async function renderFeed(source: FeedSource, format: FeedFormat, origin: string): Promise<DocumentSource> {
  const { Feed } = await (feedModule ??= import('feed'));
  const lastChange = newestChange(source.posts);
  const feed = new Feed({
    id: origin + source.pagePath,
    title: xmlText(source.title),
    description: xmlText(source.description),
    link: origin + source.pagePath,
    // An empty feed has nothing to date it by; a fixed date keeps its ETag the same everywhere.
    updated: lastChange ?? new Date(0),
    generator: 'Beatnik',
    favicon: `${origin}/favicon.svg`,
    feedLinks: {
      rss: `${origin}${source.feedPath}.${EXTENSIONS.rss}`,
      atom: `${origin}${source.feedPath}.${EXTENSIONS.atom}`,
      json: `${origin}${source.feedPath}.${EXTENSIONS.json}`,
    },
    author: source.author === undefined ? undefined : { name: xmlText(source.author), link: authorUrl(origin, source.author) },
  });
  for (const entry of source.posts) feed.addItem(itemFor(entry, format, origin));
  const body = format === 'rss' ? feed.rss2()
    : format === 'atom' ? jpegEnclosures(feed.atom1())
    : jsonFeed11(feed.json1(), source, origin);
  return { body, type: MEDIA_TYPES[format], lastModified: lastChange };
}

/** The newest edit or publication among the feed's articles: the feed's own last change. */
function newestChange(posts: FeedPost[]): Date | undefined {
  const newest = posts.reduce<string | undefined>((at, { post }) => (at === undefined || post.updated_at > at ? post.updated_at : at), undefined);
  return newest === undefined ? undefined : new Date(newest);
}

const authorUrl = (origin: string, username: string) => `${origin}${profilePath(username)}`;
const summaryOf = (post: Post) => xmlText(excerpt(htmlText(post.content_html), SUMMARY_LENGTH));

function itemFor({ post, imageBytes }: FeedPost, format: FeedFormat, origin: string): Item {
  const link = `${origin}/post/${post.id}`;
  const title = xmlText(post.title);
  const author = xmlText(post.author_username);
  return {
    // RSS titles are text (in CDATA); Atom's are HTML (`feed` writes type="html"); JSON's are text.
    title: format === 'atom' ? escapeMarkup(title) : format === 'rss' ? forCdata(title) : title,
    // Without an id, RSS's guid is the link itself, marked as a permalink.
    id: format === 'rss' ? undefined : link,
    link,
    date: new Date(post.updated_at),
    published: new Date(post.created_at),
    // JSON Feed's summary is plain text: set in jsonFeed11.
    description: format === 'json' ? undefined : escapeMarkup(summaryOf(post)),
    content: feedHtml(post.content_html, origin, post.image === null ? undefined : { url: origin + post.image, alt: pictureAlt(post) }),
    // RSS's <author> must be an e-mail address, which a feed never shows: dc:creator names them.
    author: format === 'rss' ? undefined : [{ name: author, link: authorUrl(origin, post.author_username) }],
    extensions: format === 'rss' ? [{ name: 'dc:creator', objects: { _cdata: forCdata(author) } }] : undefined,
    // Tags stored before today's hashtag rule could hold what an XML attribute cannot (Atom's term).
    category: post.hashtags.filter((tag) => hashtagProblem(tag) === undefined).map((tag) => ({ name: tag, term: tag })),
    image: post.image === null ? undefined : { url: origin + post.image, type: IMAGE_CONTENT_TYPE, length: imageBytes ?? 0 },
  };
}

/**
 * `feed` types an Atom enclosure by its file's extension (`.jpg` → `image/jpg`, which is no media
 * type); every stored image is a JPEG. Text cannot hold a raw `<`, so only the enclosure links match.
 */
function jpegEnclosures(atom: string): string {
  return atom.replace(/(<link rel="enclosure" href="[^"]*") type="image\/[^"]*"/g, `$1 type="${IMAGE_CONTENT_TYPE}"`);
}

interface JsonFeedAuthor { name?: string; url?: string }
interface JsonFeedItem {
  author?: JsonFeedAuthor;
  authors?: JsonFeedAuthor[];
  summary?: string;
  attachments?: Array<{ url: string; mime_type: string; size_in_bytes?: number }>;
}
interface JsonFeed { version: string; favicon?: string; author?: JsonFeedAuthor; authors?: JsonFeedAuthor[]; items: JsonFeedItem[] }

/**
 * `feed` writes JSON Feed 1.0; 1.1 adds `authors` (the single `author` stays for 1.0 readers),
 * and attachments carry the image's type and size.
 */
function jsonFeed11(json1: string, source: FeedSource, origin: string): string {
  const feed = JSON.parse(json1) as JsonFeed;
  feed.version = 'https://jsonfeed.org/version/1.1';
  feed.favicon = `${origin}/favicon.svg`;
  if (feed.author) feed.authors = [feed.author];
  feed.items.forEach((item, i) => {
    const { post, imageBytes } = source.posts[i]!;
    if (item.author) item.authors = [item.author];
    item.summary = summaryOf(post);
    if (post.image !== null) {
      item.attachments = [{ url: origin + post.image, mime_type: IMAGE_CONTENT_TYPE, ...(imageBytes === undefined ? {} : { size_in_bytes: imageBytes }) }];
    }
  });
  return JSON.stringify(feed);
}
