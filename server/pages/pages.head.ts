// The head of a page the server renders (DESIGN.md, Reach): its title, description and canonical
// address, Open Graph and the Twitter card for link previews, JSON-LD for search engines, and the
// feeds a reader can follow from it. Every absolute address starts from PUBLIC_URL, never from
// the request's Host header.
import { pictureAlt } from '../../shared/articles.ts';
import { excerpt } from '../../shared/excerpt.ts';
import { htmlText } from '../../shared/html-text.ts';
import { documentTitle, profilePath } from '../../shared/site.ts';
import type { Post } from '../posts/posts.view.ts';
import type { PublicUser } from '../users/users.view.ts';
import { escapeHtml, scriptJson } from './pages.escape.ts';

/** Search engines show about this much of a description. */
const DESCRIPTION_MAX = 160;

export interface PageHead {
  /** The page's own title, without the site's name: 'The Pulse'. */
  title: string;
  description: string;
  /** The canonical path and query ('/ranks?hashtag=jazz'); none on a page that was not found. */
  path?: string;
  kind: 'website' | 'article' | 'profile';
  /** The page's picture (an upload's path), for previews. */
  image?: string | null;
  /** What the picture shows, in words ('' or absent: a generic description). */
  imageAlt?: string;
  article?: { published: string; modified: string; author: string; tags: string[] };
  profile?: { username: string; bio: string; joined: string };
}

/** A list page: Home, The Pulse, Voices. */
export function listHead(title: string, description: string, path: string): PageHead {
  return { title, description, path, kind: 'website' };
}

/** A page whose article or author does not exist (a 404): kept out of search engines. */
export function missingHead(title: string, description: string): PageHead {
  return { title, description, kind: 'website' };
}

export function articleHead(post: Post): PageHead {
  return {
    title: post.title, description: summary(htmlText(post.content_html)), path: `/post/${post.id}`, kind: 'article',
    image: post.image, imageAlt: post.image_alt,
    article: { published: post.created_at, modified: post.updated_at, author: post.author_username, tags: post.hashtags },
  };
}

export function profileHead(user: PublicUser, siteName: string): PageHead {
  return {
    title: user.username, description: user.bio ? summary(user.bio) : `Articles by ${user.username} on ${siteName}.`,
    path: profilePath(user.username), kind: 'profile', image: user.avatar,
    profile: { username: user.username, bio: user.bio, joined: user.created_at },
  };
}

/** At most 160 characters, cut at a word with an ellipsis. */
function summary(text: string): string {
  return excerpt(text, DESCRIPTION_MAX - 1);
}

/** The site's three feeds, and an author's own beside them on their page. */
function feeds(head: PageHead, siteName: string): Array<{ title: string; path: string; type: string }> {
  const of = (title: string, base: string) => [
    { title: `${title} (RSS)`, path: `${base}/feed.xml`, type: 'application/rss+xml' },
    { title: `${title} (Atom)`, path: `${base}/feed.atom`, type: 'application/atom+xml' },
    { title: `${title} (JSON Feed)`, path: `${base}/feed.json`, type: 'application/feed+json' },
  ];
  const author = head.profile ? of(`${head.profile.username} on ${siteName}`, profilePath(head.profile.username)) : [];
  return [...of(siteName, ''), ...author];
}

/** The tags of the head, one a line. */
export function renderHead(head: PageHead, publicUrl: string, siteName: string): string {
  const absolute = (path: string) => (/^https?:\/\//.test(path) ? path : `${publicUrl}${path}`);
  const url = head.path === undefined ? undefined : absolute(head.path);
  const image = head.image ? absolute(head.image) : undefined;
  const title = documentTitle(head.title, siteName);
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const tags = [`<title>${escapeHtml(title)}</title>`, meta('name', 'description', head.description)];
  if (!url) tags.push(meta('name', 'robots', 'noindex'));
  else {
    tags.push(`<link rel="canonical" href="${escapeHtml(url)}">`,
      meta('property', 'og:site_name', siteName), meta('property', 'og:type', head.kind),
      meta('property', 'og:title', head.title), meta('property', 'og:description', head.description),
      meta('property', 'og:url', url));
    if (image) tags.push(meta('property', 'og:image', image));
    if (image && head.article) tags.push(meta('property', 'og:image:alt', pictureAlt({ image_alt: head.imageAlt ?? '', title: head.title })));
    if (head.article) {
      tags.push(meta('property', 'article:published_time', head.article.published),
        meta('property', 'article:modified_time', head.article.modified),
        meta('property', 'article:author', absolute(profilePath(head.article.author))),
        ...head.article.tags.map((tag) => meta('property', 'article:tag', tag)));
    }
    if (head.profile) tags.push(meta('property', 'profile:username', head.profile.username));
    tags.push(meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'));
    const data = structuredData(head, url, image, absolute, siteName);
    if (data) tags.push(`<script type="application/ld+json">${scriptJson(data)}</script>`);
  }
  for (const feed of feeds(head, siteName)) {
    tags.push(`<link rel="alternate" type="${feed.type}" title="${escapeHtml(feed.title)}" href="${escapeHtml(absolute(feed.path))}">`);
  }
  return tags.join('\n    ');
}

/** schema.org's Article for an article, ProfilePage for an author; none for the lists. */
function structuredData(head: PageHead, url: string, image: string | undefined, absolute: (path: string) => string, siteName: string): object | undefined {
  if (head.article) {
    const { article } = head;
    return {
      '@context': 'https://schema.org', '@type': 'Article', headline: head.title, description: head.description,
      datePublished: article.published, dateModified: article.modified,
      author: { '@type': 'Person', name: article.author, url: absolute(profilePath(article.author)) },
      ...(image ? { image: [image] } : {}),
      ...(article.tags.length ? { keywords: article.tags.join(', ') } : {}),
      url, mainEntityOfPage: url, publisher: { '@type': 'Organization', name: siteName },
    };
  }
  if (head.profile) {
    const { profile } = head;
    return {
      '@context': 'https://schema.org', '@type': 'ProfilePage', url, dateCreated: profile.joined,
      mainEntity: {
        '@type': 'Person', name: profile.username, alternateName: `@${profile.username}`, url,
        ...(profile.bio ? { description: profile.bio } : {}), ...(image ? { image } : {}),
      },
    };
  }
  return undefined;
}
