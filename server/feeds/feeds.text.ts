// How people's text goes into a feed. An article's content is the sanitized HTML stored when it
// was written (server/markdown/), its links to the site made absolute (a feed reader has no page
// to resolve '/beatnik/ana' against), after its picture with the picture's alt text.
import { escapeMarkup } from '../markup.ts';

/** A link the stored HTML makes to a path of this site: the sanitizer writes every href quoted. */
const SITE_LINK = /\shref="\//g;

export interface FeedPicture {
  /** Its absolute URL. */
  url: string;
  alt: string;
}

export function feedHtml(contentHtml: string, origin: string, picture?: FeedPicture): string {
  const figure = picture ? `<p><img src="${escapeMarkup(picture.url)}" alt="${escapeMarkup(xmlText(picture.alt))}" /></p>\n` : '';
  return figure + xmlText(contentHtml).replace(SITE_LINK, ` href="${origin}/`);
}

/**
 * Characters XML 1.0 cannot carry at all, not even escaped (the text rules already drop controls,
 * but not U+FFFE, U+FFFF or a lone surrogate): a feed with one would not parse.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '');
}

/**
 * Text for a CDATA section written by xml-js (under `feed`), which splits only the first `]]>` it
 * finds (String.replace with a string): the later ones are split here, the same way, so that a
 * title with two of them still parses and reads as typed.
 */
export function forCdata(text: string): string {
  const [first, ...rest] = text.split(']]>');
  return rest.length < 2 ? text : `${first}]]>${rest.join(']]]]><![CDATA[>')}`;
}
