// Reading time (DESIGN.md, Writing): 'N min read' on an article and its cards.

/** Words a reader reads in a minute. */
const WORDS_PER_MINUTE = 230;

/** Minutes to read a text without markup: its words ÷ 230, rounded, at least 1. */
export function readingMinutes(text: string): number {
  const words = text.match(/\S+/g)?.length ?? 0;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
