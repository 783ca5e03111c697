// The second wall behind the parser (DESIGN.md, Writing): whatever markdown-it wrote goes through
// an allowlist of the elements, attributes and link schemes the site shows, so a parser bug or a
// rule enabled by mistake still cannot put a script, an event handler, a style or a javascript:
// address on a page. js-xss (the `xss` package) is an allowlist sanitizer that runs in Node
// without a DOM; chosen over sanitize-html, which did the same work in 30-45 µs for a one-line
// comment against js-xss's 2 µs: every comment and article pays it when written.
import filterXss, { FilterXSS } from 'xss';
import { isAllowedHref, OFF_SITE_REL } from './markdown.parser.ts';

/** Every element the stored HTML may hold, with the attributes each may carry. */
const ALLOWED: Record<string, string[]> = {
  p: [], br: [], em: [], strong: [], s: [], code: ['class'], pre: [], blockquote: [], ul: [], ol: ['start'], li: [],
  h2: [], h3: [], hr: [], a: ['href', 'rel', 'class'],
};

/** Each allowed attribute's allowed values (tested on the value as a browser reads it). */
const VALID: Record<string, (value: string, tag: string) => boolean> = {
  href: (value) => isAllowedHref(value),
  rel: (value) => value === OFF_SITE_REL,
  // A mention's link; a fence's language: letters, digits and a few signs (c++, c#, objective-c).
  class: (value, tag) => (tag === 'a' ? value === 'mention' : /^language-[\w+#.-]+$/.test(value)),
  start: (value) => /^\d{1,9}$/.test(value),
};

// The helpers js-xss's own default filter uses (on its default export at run time: Node's ESM
// loader does not find them as named exports of the CommonJS module).
const { escapeAttrValue, friendlyAttrValue } = filterXss as unknown as typeof import('xss');

const filter = new FilterXSS({
  whiteList: ALLOWED,
  // Any other tag is escaped: shown as the text it is, never dropped silently.
  stripIgnoreTag: false,
  allowCommentTag: false,
  css: false,
  onTagAttr(tag: string, name: string, value: string) {
    if (!ALLOWED[tag]?.includes(name)) return '';
    // Entities decoded and invisible characters removed, as the browser would read the value.
    const read = friendlyAttrValue(value).trim();
    return VALID[name]?.(read, tag) ? `${name}="${escapeAttrValue(read)}"` : '';
  },
});

export function sanitizeRendered(html: string): string {
  return filter.process(html);
}
