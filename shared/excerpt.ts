// The teaser rule of every card, list and feed (SPEC §9 lengths), on the server and the client.

/** Dots, ellipses, commas and dashes a cut can end on: dropped, so only one ellipsis follows. */
const TRAILING = /[\s.…,;:\-–—]+$/u;

/** The one ellipsis character a cut text gets. */
export const ELLIPSIS = '…';

/**
 * Text cut to at most `length` characters at a word boundary (unless that loses over 40 % of
 * it), with one ellipsis when cut. A cut that lands after the writer's own "..." or "…" keeps a
 * single ellipsis, never two.
 */
export function excerpt(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length);
  const lastSpace = cut.lastIndexOf(' ');
  return clipped(lastSpace > length * 0.6 ? cut.slice(0, lastSpace) : cut);
}

/** A text already cut short, ending in exactly one ellipsis. */
export function clipped(text: string): string {
  return `${text.replace(TRAILING, '')}${ELLIPSIS}`;
}
