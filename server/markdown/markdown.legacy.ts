// Texts written before Markdown (migrations/0014_markdown.ts): plain text shown with its line
// breaks (CSS white-space: pre-line). Rewritten as the Markdown source that shows the same text
// with the same breaks, by escaping every character Markdown would read as markup there, and
// dropping the spaces around a line (pre-line never showed them; four would open a code block).

/** What a line may start with that opens a block: a heading, a quote, a list item, a rule, a fence, a setext underline. */
const BLOCK_START = /^(?:[#>=+~|-]|\d{1,9}[.)])/;
/** Inline markup wherever it stands: escapes, emphasis, code, links, autolinks. */
const INLINE = /[\\`*[\]<~]/g;
/** `_` opens or closes emphasis unless letters or digits stand on both sides of it. */
const UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** A character reference Markdown would decode: `&copy;`, `&#169;`. */
const ENTITY = /&(?=#?[0-9A-Za-z]+;)/g;
/** Addresses the parser makes links of (server/markdown/markdown.parser.ts linkify). */
const WEB_ADDRESS = /(https?:)(?=\/\/)/gi;
const MAIL_ADDRESS = /(mailto)(?=:)/gi;
/** Anything that could start a mention (server/markdown/markdown.mentions.ts). */
const MENTION = /@(?=[A-Za-z0-9])/g;

export function escapeLegacyText(text: string): string {
  return text.replace(/\r\n?/g, '\n').split('\n').map(escapeLine).join('\n');
}

function escapeLine(line: string): string {
  const escaped = line.replace(/^[ \t]+|[ \t]+$/g, '')
    .replace(INLINE, '\\$&')
    .replace(UNDERSCORE, '\\_')
    .replace(ENTITY, '\\&')
    .replace(WEB_ADDRESS, '$1\\')
    .replace(MAIL_ADDRESS, '$1\\')
    .replace(MENTION, '\\@');
  const block = BLOCK_START.exec(escaped);
  if (!block) return escaped;
  // Escaping the marker's last character leaves a digit run, a `#` or a `-` that opens nothing.
  const marker = block[0];
  return `${marker.slice(0, -1)}\\${escaped.slice(marker.length - 1)}`;
}
