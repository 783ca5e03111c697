// The one Markdown parser (DESIGN.md, Writing): CommonMark as markdown-it reads it, with a single
// newline as a line break (SPEC: line breaks kept), ~~strike~~, bare http(s) URLs made links, and
// nothing the site does not show: no raw HTML (shown as text), no images inside the text (the
// article's one picture stays), no tables, no typographic replacements. markdown-it is the
// CommonMark parser the field uses (GitLab, Discourse): fast, linear on the pathological inputs
// CommonMark's own suite lists, and its tokens let the mentions and headings be adjusted before
// anything is written as HTML.
import markdownIt, { type Env, type MarkdownIt, type StateCore, type StateInline } from 'markdown-it';
import { markMentions } from './markdown.mentions.ts';

/** A link's address is kept only with one of these schemes, or as a path on this site ('/…'). */
const LINK_SCHEME = /^(?:https?|mailto):/i;
const SITE_PATH = /^\/(?![/\\])/;

export function isAllowedHref(href: string): boolean {
  return LINK_SCHEME.test(href) || SITE_PATH.test(href);
}

/** The title is the page's only h1: `#` becomes h2, `####` and deeper h3. */
function headingLevels(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== 'heading_open' && token.type !== 'heading_close') continue;
    token.tag = token.tag === 'h1' || token.tag === 'h2' ? 'h2' : 'h3';
  }
}

/**
 * markdown-it looks for a link label's closing ']' from every '[', to the end of the paragraph:
 * a text of 10,000 '[' took 20–50 ms. With no ']' after the '[' anywhere in the text, no label can
 * close, and the answer (none) is known at once; the parse is otherwise the same.
 */
function labelsOnlyWithClosingBracket(parseLinkLabel: MarkdownIt['helpers']['parseLinkLabel']): MarkdownIt['helpers']['parseLinkLabel'] {
  const lastClosing = new WeakMap<StateInline, number>();
  return (state, start, disableNested) => {
    let last = lastClosing.get(state);
    if (last === undefined) lastClosing.set(state, (last = state.src.lastIndexOf(']')));
    return last > start ? parseLinkLabel(state, start, disableNested) : -1;
  };
}

function createParser(): MarkdownIt {
  // xhtmlOut: <br />, as the stored HTML has always written it.
  const md = markdownIt('default', { html: false, xhtmlOut: true, linkify: true, breaks: true, typographer: false });
  md.disable(['image', 'table']);
  // Only what a writer plainly typed as an address: no 'example.com' or 'a@b.org' turned into links.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  // Called with the address already normalised (entities decoded, percent-encoded): anything but
  // the allowed schemes or a site path leaves the link as the text it was typed as.
  md.validateLink = isAllowedHref;
  md.helpers.parseLinkLabel = labelsOnlyWithClosingBracket(md.helpers.parseLinkLabel);
  md.core.ruler.after('block', 'heading_levels', headingLevels);
  md.core.ruler.after('linkify', 'mentions', markMentions);
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const href = tokens[index]!.attrGet('href');
    if (href !== null && !isOnSite(String(href), (env as RenderEnv).siteOrigin)) tokens[index]!.attrSet('rel', OFF_SITE_REL);
    return self.renderToken(tokens, index, options);
  };
  return md;
}

/** What rendering is told: the site's origin (PUBLIC_URL's), whose links are the site's own. */
export interface RenderEnv extends Env {
  siteOrigin: string;
}

/** Off the site, a reader's link is theirs, not the site's: no ranking credit, no window.opener. */
export const OFF_SITE_REL = 'ugc nofollow noopener noreferrer';

function isOnSite(href: string, siteOrigin: string): boolean {
  if (SITE_PATH.test(href)) return true;
  try {
    return new URL(href).origin === siteOrigin;
  } catch {
    return false;
  }
}

export const markdown = createParser();
