// How people's text goes into a feed: as text, never as markup. An article's content becomes
// HTML paragraphs of escaped text, so `<script>` or `&` read as typed in every feed reader.
import { escapeMarkup } from '../markup.ts';

/**
 * The article as the page shows it (white-space: pre-line): a paragraph per blank-line-separated
 * block, a line break per single newline, everything else escaped.
 */
export function paragraphsHtml(content: string): string {
  return content.split(/\n[ \t]*\n\s*/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => `<p>${block.split('\n').map((line) => escapeMarkup(line.trim())).join('<br>')}</p>`)
    .join('\n');
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
