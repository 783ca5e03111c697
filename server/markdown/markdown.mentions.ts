// `@username` in a text (DESIGN.md, Writing): found while parsing, outside code and links and not
// escaped (`\@name` mentions nobody), and made a link to the profile when such a user exists.
// Finding and linking are two steps on the same tokens, so the users can be looked up in between
// with one query.
import markdownIt, { type StateCore, type Token } from 'markdown-it';
import { profilePath } from '../../shared/site.ts';

/**
 * A name as usernames are chosen (shared/accounts.ts, 3 to 35 characters), after a start of text
 * or a character that cannot be part of an address or a word: 'mail@example.org' mentions nobody.
 */
const MENTION = /(^|[^A-Za-z0-9._@/+\\-])@([A-Za-z0-9][A-Za-z0-9._-]{1,33}[A-Za-z0-9])(?![A-Za-z0-9_@-]|\.[A-Za-z0-9])/g;
/** The characters that may not stand right before a mention's `@` (MENTION's first group). */
const NOT_BEFORE = /[A-Za-z0-9._@/+\\-]/;

/** The token a possible mention is parsed into: its content the name as typed, without the `@`. */
const MENTION_TOKEN = 'mention';

/** A mentioned user as the link shows them. */
export interface MentionedUser {
  id: number;
  username: string;
}

/**
 * A core rule, run before text_join merges escaped characters back into the text around them:
 * each `@name` of a text token outside a link becomes a mention token of its own.
 */
export function markMentions(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children: Token[] = [];
    let linkDepth = 0;
    // The character before a text token, when the token before it is text too (an escaped one).
    let before = '';
    for (const token of block.children) {
      if (token.type === 'link_open') linkDepth += 1;
      else if (token.type === 'link_close') linkDepth -= 1;
      if (token.type === 'text' && linkDepth === 0 && token.content.includes('@')) children.push(...splitMentions(token, before, state));
      else children.push(token);
      before = token.type === 'text' || token.type === 'text_special' ? token.content.slice(-1) : '';
    }
    block.children = children;
  }
}

function splitMentions(token: Token, before: string, state: StateCore): Token[] {
  const text = token.content;
  const out: Token[] = [];
  let at = 0;
  for (const match of text.matchAll(MENTION)) {
    if (match.index === 0 && NOT_BEFORE.test(before)) continue;
    const start = match.index + match[1]!.length;
    if (start > at) out.push(textToken(state, text.slice(at, start), token.level));
    const mention = new state.Token(MENTION_TOKEN, '', 0);
    mention.content = match[2]!;
    mention.level = token.level;
    out.push(mention);
    at = start + 1 + match[2]!.length;
  }
  if (out.length === 0) return [token];
  if (at < text.length) out.push(textToken(state, text.slice(at), token.level));
  return out;
}

function textToken(state: StateCore | undefined, content: string, level: number): Token {
  const token = state ? new state.Token('text', '', 0) : new markdownIt.Token('text', '', 0);
  token.content = content;
  token.level = level;
  return token;
}

function inlineBlocks(tokens: Token[]): Token[] {
  return tokens.filter((block) => block.type === 'inline' && block.children !== null);
}

/** The names mentioned, lower-cased, in order of first appearance. */
export function mentionedNames(tokens: Token[]): string[] {
  const names = new Set<string>();
  for (const block of inlineBlocks(tokens)) {
    for (const token of block.children!) if (token.type === MENTION_TOKEN) names.add(token.content.toLowerCase());
  }
  return [...names];
}

/** Each mention of a user in `users` (by lower-cased name) becomes a link to their profile, any other its text. */
export function resolveMentions(tokens: Token[], users: ReadonlyMap<string, MentionedUser>): void {
  for (const block of inlineBlocks(tokens)) {
    block.children = block.children!.flatMap((token) => {
      if (token.type !== MENTION_TOKEN) return [token];
      const user = users.get(token.content.toLowerCase());
      const typed = `@${token.content}`;
      return user ? mentionLink(user, typed, token.level) : [textToken(undefined, typed, token.level)];
    });
  }
}

function mentionLink(user: MentionedUser, typed: string, level: number): Token[] {
  const open = new markdownIt.Token('link_open', 'a', 1);
  open.attrs = [['href', profilePath(user.username)], ['class', 'mention']];
  open.level = level;
  const close = new markdownIt.Token('link_close', 'a', -1);
  close.level = level;
  return [open, textToken(undefined, typed, level + 1), close];
}
