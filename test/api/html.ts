// A page the server rendered, read as a browser, a crawler or a chat app's preview would read it:
// parsed by parse5, the HTML standard's parsing algorithm (a regular expression over the text
// would find a `<meta>` that a parser puts elsewhere, or miss one it keeps).
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type DefaultTreeAdapterMap } from 'parse5';

const INDEX_SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client/index.html');

/** A client directory holding client/index.html alone: the page the server writes rendered pages
 * into, without needing a build (the browser tests use the built one). Remove it after. */
export function pageTemplateDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-template-'));
  copyFileSync(INDEX_SOURCE, path.join(dir, 'index.html'));
  return dir;
}

type Node = DefaultTreeAdapterMap['node'];
export type Element = DefaultTreeAdapterMap['element'];

export interface ParsedPage {
  /** Every element with this tag name, in document order. */
  all(tag: string): Element[];
  /** The content of each <meta> with this property (Open Graph) or name, in order. */
  meta(key: string): string[];
  /** The href of each <link> with this rel. */
  links(rel: string): Element[];
  /** The text of the <title>. */
  title: string;
  /** Whether the element sits in <head>. */
  inHead(el: Element): boolean;
}

export function attr(el: Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

/** The text an element holds, its descendants' included. */
export function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  const children = 'childNodes' in node ? node.childNodes : [];
  return children.map(textOf).join('');
}

function descendants(node: Node, found: Element[] = []): Element[] {
  for (const child of 'childNodes' in node ? node.childNodes : []) {
    if ('tagName' in child) found.push(child);
    descendants(child, found);
  }
  return found;
}

export function parsePage(html: string): ParsedPage {
  const document = parse(html);
  const elements = descendants(document);
  const head = elements.find((el) => el.tagName === 'head')!;
  const inHead = (el: Element) => {
    for (let at: Element | null = el; at; at = at.parentNode && 'tagName' in at.parentNode ? at.parentNode : null) if (at === head) return true;
    return false;
  };
  const all = (tag: string) => elements.filter((el) => el.tagName === tag);
  return {
    all,
    meta: (key) => all('meta').filter((el) => attr(el, 'property') === key || attr(el, 'name') === key).map((el) => attr(el, 'content') ?? ''),
    links: (rel) => all('link').filter((el) => attr(el, 'rel') === rel),
    title: textOf(all('title')[0]!),
    inHead,
  };
}
