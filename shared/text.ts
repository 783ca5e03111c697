// How every piece of text people type is cleaned before it is counted, checked and stored
// (DESIGN.md, Edges: Text). The client's character counters and the server's checks both call
// these, so a counter never disagrees with the server about a pasted text.

/** C0 and C1 control characters but tab (U+0009) and newline (U+000A). */
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Characters that draw nothing but can reorder, hide or join what is around them: soft hyphen,
 * bidi marks, embeddings, overrides and isolates, zero-width spaces, word joiners, fillers that
 * pass for blanks (U+3164 and friends), the byte-order mark, interlinear annotation marks.
 */
const INVISIBLES = new RegExp('[' + [
  '\u00AD', '\u034F', '\u061C', '\u115F\u1160', '\u17B4\u17B5', '\u180B-\u180F', '\u200B',
  '\u200E\u200F', '\u202A-\u202E', '\u2060-\u2064', '\u2066-\u206F', '\u3164', '\uFEFF',
  '\uFFA0', '\uFFF9-\uFFFB', '\u{1D173}-\u{1D17A}',
].join('') + ']', 'gu');

/**
 * Zero-width (non-)joiners are invisible too, but Persian, Indic scripts and emoji sequences
 * (👨‍👩‍👧) need them between two visible characters; anywhere else they go.
 */
const STRAY_JOINERS = /(?<![\p{L}\p{M}\p{Extended_Pictographic}\uFE0F])[\u200C\u200D]|[\u200C\u200D](?![\p{L}\p{M}\p{Extended_Pictographic}])/gu;

/** Tag characters hide text; they are kept only inside an emoji flag sequence (🏴 + tags). */
const STRAY_TAGS = /(?<!\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0001}\u{E0020}-\u{E007F}]/gu;

/** \r\n, a lone \r and the Unicode line and paragraph separators all become \n. */
const LINE_ENDINGS = /\r\n?|[\u2028\u2029]/g;

/** Multi-line text (article content, comments, bios, messages): cleaned, then trimmed. */
export function normalizeText(raw: string): string {
  return withoutUnseen(raw.replace(LINE_ENDINGS, '\n')).trim();
}

/** The text without its control and invisible characters (newlines and tabs stay), untrimmed: a piece of a longer text. */
export function withoutUnseen(raw: string): string {
  const seen = raw.replace(CONTROLS, '').replace(INVISIBLES, '');
  // The two rules that look around a character, only where there is one to look at (tag characters
  // are all in U+E0000–U+E007F, written with the surrogate \uDB40): the sanitizer asks this of every
  // piece of text between tags.
  const tagsGone = seen.includes('\uDB40') ? seen.replace(STRAY_TAGS, '') : seen;
  return /[\u200C\u200D]/.test(tagsGone) ? tagsGone.replace(STRAY_JOINERS, '') : tagsGone;
}

/** One-line text (titles, names, hashtags, subjects, reasons): line breaks and tabs become spaces. */
export function normalizeLine(raw: string): string {
  return normalizeText(raw).replace(/[\t\n]+/g, ' ');
}

/** The length the server checks a multi-line field against: what a character counter shows. */
export function textLength(raw: string): number {
  return normalizeText(raw).length;
}

/** The length the server checks a one-line field against. */
export function lineLength(raw: string): number {
  return normalizeLine(raw).length;
}
