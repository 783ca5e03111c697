// Reading the XML the server sends (feeds, sitemaps) with a real parser: a document that is not
// well-formed fails here with the parser's reason, before any test looks inside it.
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Elements that may repeat, by path, always read as arrays (one item is still a list of one). */
const LISTS = new Set([
  'rss.channel.item', 'rss.channel.item.category',
  'feed.link', 'feed.entry', 'feed.entry.link', 'feed.entry.author', 'feed.entry.category',
  'urlset.url', 'sitemapindex.sitemap',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Values stay as sent: "2.0" is not a number, a date is the text the feed holds.
  parseTagValue: false,
  // Character references (&#39;) are XML; the parser decodes them only with this option.
  htmlEntities: true,
  trimValues: false,
  isArray: (_name, path) => LISTS.has(String(path)),
});

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export function parseXml(text: string): any {
  const valid = XMLValidator.validate(text);
  assert.equal(valid, true, `not well-formed XML: ${JSON.stringify(valid)}\n${text.slice(0, 500)}`);
  // Two rules of XML this validator (and sax) let through: characters outside XML's Char
  // production (U+FFFE, U+FFFF, controls), and "]]>" in text outside a CDATA section.
  assert.ok(!NOT_XML.test(text), `a character XML cannot carry:\n${text.slice(0, 500)}`);
  const outsideCdata = text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  assert.ok(!outsideCdata.includes(']]>'), `"]]>" outside a CDATA section:\n${text.slice(0, 500)}`);
  return parser.parse(text);
}

/** An element's text whether or not it has attributes (`<guid isPermaLink="true">…</guid>`). */
export function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && '#text' in node) return String((node as Record<string, unknown>)['#text']);
  return undefined;
}

/** What a browser shows for escaped HTML text: the five entities a feed or sitemap uses, decoded. */
export function decodeEntities(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
}
