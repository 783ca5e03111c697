// The plain text of the HTML the server stores for an article or a comment (server/markdown/):
// what excerpts, snippets, search, descriptions and reading time use, on the server and in the
// browser alike. It reads only that HTML: tags the sanitizer wrote, text with the entities it wrote.

/** A line ends at a line break and a list item; a blank line follows a paragraph or other block. */
const LINE_END = /<br \/>|<\/li>/g;
const BLOCK_END = /<\/(?:p|h2|h3|blockquote|pre|ul|ol)>|<hr \/>/g;
/** The newline the HTML has after a tag, for its own layout (text itself has its newlines only
 * in code blocks, where no tag precedes them: a `>` there is written `&gt;`). */
const LAYOUT_NEWLINE = />\n/g;
const TAG = /<[^>]*>/g;
const ENTITY = /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos|nbsp));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function htmlText(html: string): string {
  return html
    .replace(LAYOUT_NEWLINE, '>')
    .replace(LINE_END, '\n')
    .replace(BLOCK_END, '\n\n')
    .replace(TAG, '')
    .replace(ENTITY, (_, decimal?: string, hex?: string, name?: string) => {
      if (name) return NAMED[name.toLowerCase()]!;
      const code = decimal ? Number(decimal) : parseInt(hex!, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
