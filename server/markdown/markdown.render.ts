// Markdown to the HTML the site stores (DESIGN.md, Writing): parsed once when written, mentions of
// existing users linked, sanitized, and its plain text for search, excerpts and reading time.
// Nothing reads Markdown afterwards: pages, feeds and the API serve the stored result.
import type { Token } from 'markdown-it';
import { htmlText } from '../../shared/html-text.ts';
import { mentionedNames, resolveMentions, type MentionedUser } from './markdown.mentions.ts';
import { markdown, type RenderEnv } from './markdown.parser.ts';
import { sanitizeRendered } from './markdown.sanitize.ts';

export interface RenderedText {
  /** Sanitized HTML: what readers see. */
  html: string;
  /** The same without markup (shared/html-text.ts). */
  text: string;
  /** The existing users the text mentions, in order of first mention. */
  mentioned: MentionedUser[];
}

export interface RenderOptions {
  /** PUBLIC_URL's origin: links elsewhere get rel="ugc nofollow noopener noreferrer". */
  siteOrigin: string;
  /** The users with these lower-cased names (one query); none asked when the text names nobody. */
  findUsers: (names: string[]) => Promise<MentionedUser[]>;
}

/** At most this many names are looked up (and linked) per text. */
export const MENTIONS_LOOKED_UP = 50;

/** A parsed text and the names it mentions, to look up before it is written as HTML. */
export interface ParsedText {
  tokens: Token[];
  names: string[];
}

export function parseText(source: string): ParsedText {
  const tokens = markdown.parse(source, {});
  return { tokens, names: mentionedNames(tokens).slice(0, MENTIONS_LOOKED_UP) };
}

/** The parsed text as HTML, its mentions of `users` linked (by lower-cased name). Consumes the tokens. */
export function writeParsed({ tokens, names }: ParsedText, users: readonly MentionedUser[], siteOrigin: string): RenderedText {
  const byName = new Map(users.map((user) => [user.username.toLowerCase(), user]));
  resolveMentions(tokens, byName);
  const env: RenderEnv = { siteOrigin };
  const html = sanitizeRendered(markdown.renderer.render(tokens, markdown.options, env));
  return { html, text: htmlText(html), mentioned: names.flatMap((name) => byName.get(name) ?? []) };
}

export async function renderMarkdown(source: string, { siteOrigin, findUsers }: RenderOptions): Promise<RenderedText> {
  const parsed = parseText(source);
  const users = parsed.names.length > 0 ? await findUsers(parsed.names) : [];
  return writeParsed(parsed, users, siteOrigin);
}

/** The names a text mentions, lower-cased, whether or not such users exist: what an edit had before. */
export function mentionedNamesOf(source: string): string[] {
  return parseText(source).names;
}
