// The second wall behind the parser (DESIGN.md, Writing): whatever markdown-it wrote goes through
// an allowlist of the elements, attributes and link schemes the site shows, so a parser bug or a
// rule enabled by mistake still cannot put a script, an event handler, a style or a javascript:
// address on a page. js-xss (the `xss` package) is an allowlist sanitizer that runs in Node
// without a DOM; chosen over sanitize-html, which did the same work in 30-45 µs for a one-line
// comment against js-xss's 2 µs: every comment and article pays it when written.
import filterXss, { FilterXSS } from 'xss';
import { withoutUnseen } from '../../shared/text.ts';
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
const { escapeAttrValue, escapeHtml, friendlyAttrValue } = filterXss as unknown as typeof import('xss');

/** A character reference: decimal, hexadecimal, or one of the names HTML gives invisible characters. */
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(shy|zwj|zwnj|lrm|rlm|NoBreak|af|it|ic|ApplyFunction|InvisibleTimes|InvisibleComma|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace));?/gi;
const NAMED_UNSEEN: Record<string, string> = {
  shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', lrm: '\u200e', rlm: '\u200f', nobreak: '\u2060',
  af: '\u2061', applyfunction: '\u2061', it: '\u2062', invisibletimes: '\u2062', ic: '\u2063', invisiblecomma: '\u2063',
  zerowidthspace: '\u200b', negativeverythinspace: '\u200b', negativethinspace: '\u200b', negativemediumspace: '\u200b', negativethickspace: '\u200b',
};

/**
 * The text between tags, as both filters write it: without control or invisible characters
 * (shared/text.ts), whether typed as they are or as character references, which a browser would
 * read as the characters themselves (a bidi override turns the rest of the paragraph around);
 * then escaped as js-xss escapes text.
 */
function escapeText(text: string): string {
  const references = !text.includes('&') ? text : text.replace(REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? parseInt(hex, 16) : undefined;
    const char = name !== undefined ? NAMED_UNSEEN[name.toLowerCase()]! : code! <= 0x10ffff ? String.fromCodePoint(code!) : '';
    // Written out, so that the rule below keeps a joiner inside an emoji sequence and drops the rest.
    return char !== '' && withoutUnseen(char) === '' ? char : reference;
  });
  return escapeHtml(withoutUnseen(references));
}

const filter = new FilterXSS({
  whiteList: ALLOWED,
  // Any other tag is escaped: shown as the text it is, never dropped silently.
  stripIgnoreTag: false,
  allowCommentTag: false,
  css: false,
  escapeHtml: escapeText,
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

/**
 * A reply from the fediverse is another server's HTML, not Markdown (DESIGN.md, Inbox): it is
 * brought to the same allowlist. Unknown elements go with their markup only (a Mastodon mention's
 * `<span>`s keep their text), a script's or a style's body with it; the few elements of the same
 * meaning under another name are renamed; links keep only an absolute http(s) or mailto address
 * (a path would point into this site) and, off the site, carry the same `rel` as a reader's.
 */
const REMOTE_ALLOWED: Record<string, string[]> = { ...ALLOWED, a: ['href'] };
const RENAMED: Record<string, string> = { b: 'strong', i: 'em', del: 's', strike: 's', h1: 'h2', h4: 'h3', h5: 'h3', h6: 'h3' };
const ABSOLUTE_LINK = /^(?:https?|mailto):/i;

const remoteFilter = new FilterXSS({
  whiteList: { ...REMOTE_ALLOWED, ...Object.fromEntries(Object.keys(RENAMED).map((tag) => [tag, []])) },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'textarea', 'title', 'svg', 'math'],
  allowCommentTag: false,
  css: false,
  escapeHtml: escapeText,
  onTag(tag: string, _html: string, options: { isClosing?: boolean }) {
    if (tag === 'br' || tag === 'hr') return options.isClosing ? '' : `<${tag} />`;
    const renamed = RENAMED[tag];
    return renamed ? `<${options.isClosing ? '/' : ''}${renamed}>` : undefined;
  },
  onTagAttr(tag: string, name: string, value: string) {
    if (!REMOTE_ALLOWED[tag]?.includes(name)) return '';
    const read = friendlyAttrValue(value).trim();
    const valid = name === 'href' ? ABSOLUTE_LINK.test(read) && isAllowedHref(read) : VALID[name]?.(read, tag);
    return valid ? `${name}="${escapeAttrValue(read)}"` : '';
  },
});

/** The filtered links: `<a href="…">` exactly as the filter above writes them. */
const FILTERED_LINK = /<a href="([^"]*)">/g;

export function sanitizeRemoteHtml(html: string, siteOrigin: string): string {
  return remoteFilter.process(html).replace(FILTERED_LINK, (link, href: string) => {
    let origin: string | undefined;
    try {
      origin = new URL(href.replace(/&amp;/g, '&')).origin;
    } catch {
      origin = undefined;
    }
    return origin === siteOrigin ? link : `<a href="${href}" rel="${OFF_SITE_REL}">`;
  });
}
