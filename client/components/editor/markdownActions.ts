// The editor's toolbar as text changes (DESIGN.md, Writing): each action takes the text and the
// selection and says what to put where, and what to select after, so the field can apply it as
// typing (and undo it as typing). Pure: no DOM here.

export type MarkdownAction = 'bold' | 'italic' | 'link' | 'quote' | 'list' | 'heading' | 'code';

export interface Selection {
  start: number;
  end: number;
}

/** Replace text[from, to) with `insert`, then select `select` (positions in the new text). */
export interface Edit {
  from: number;
  to: number;
  insert: string;
  select: Selection;
}

/** What an empty selection gets to work on: a word to type over. */
const PLACEHOLDER: Partial<Record<MarkdownAction, string>> = {
  bold: 'bold text', italic: 'italic text', link: 'link text', code: 'code',
};

export function markdownEdit(action: MarkdownAction, text: string, selection: Selection): Edit {
  switch (action) {
    case 'bold': return wrap(text, selection, '**', PLACEHOLDER.bold!);
    case 'italic': return wrap(text, selection, '*', PLACEHOLDER.italic!);
    case 'code': return code(text, selection);
    case 'link': return link(text, selection);
    case 'quote': return prefixLines(text, selection, () => '> ');
    case 'list': return prefixLines(text, selection, () => '- ');
    case 'heading': return prefixLines(text, selection, () => '## ');
  }
}

/** `**selection**`, or the marks taken away when the selection already has them around it. */
function wrap(text: string, { start, end }: Selection, mark: string, placeholder: string): Edit {
  const selected = text.slice(start, end);
  const before = text.slice(start - mark.length, start);
  const after = text.slice(end, end + mark.length);
  if (selected !== '' && before === mark && after === mark && !(mark === '*' && isBold(text, start, end))) {
    return { from: start - mark.length, to: end + mark.length, insert: selected, select: { start: start - mark.length, end: end - mark.length } };
  }
  const inner = selected === '' ? placeholder : selected;
  return { from: start, to: end, insert: `${mark}${inner}${mark}`, select: { start: start + mark.length, end: start + mark.length + inner.length } };
}

/** `*` right inside `**`: the selection is bold, not italic. */
function isBold(text: string, start: number, end: number): boolean {
  return text.slice(start - 2, start) === '**' && text.slice(end, end + 2) === '**' && text.slice(start - 3, start) !== '***';
}

/** Inline code on one line; a fenced block around several. */
function code(text: string, selection: Selection): Edit {
  const selected = text.slice(selection.start, selection.end);
  if (!selected.includes('\n')) return wrap(text, selection, '`', PLACEHOLDER.code!);
  const { from, to } = wholeLines(text, selection);
  const block = text.slice(from, to);
  const insert = `\`\`\`\n${block}\n\`\`\``;
  return { from, to, insert, select: { start: from + 4, end: from + 4 + block.length } };
}

/** `[selection](https://)` with the address selected to type over; an empty selection's text selected first. */
function link(text: string, { start, end }: Selection): Edit {
  const selected = text.slice(start, end);
  if (/^https?:\/\/\S+$/.test(selected)) {
    // An address selected: it is the link, and its text is to be written.
    const insert = `[${PLACEHOLDER.link}](${selected})`;
    return { from: start, to: end, insert, select: { start: start + 1, end: start + 1 + PLACEHOLDER.link!.length } };
  }
  if (selected === '') {
    const insert = `[${PLACEHOLDER.link}](https://)`;
    return { from: start, to: end, insert, select: { start: start + 1, end: start + 1 + PLACEHOLDER.link!.length } };
  }
  const insert = `[${selected}](https://)`;
  const address = start + selected.length + 3;
  return { from: start, to: end, insert, select: { start: address, end: address + 'https://'.length } };
}

/** The selection widened to the lines it touches. */
function wholeLines(text: string, { start, end }: Selection): { from: number; to: number } {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end > start && text[end - 1] === '\n' ? end - 1 : end);
  return { from, to: lineEnd === -1 ? text.length : lineEnd };
}

/** Each touched line given the prefix, or every one's taken away when they all have it already. */
function prefixLines(text: string, selection: Selection, prefixFor: (index: number) => string): Edit {
  const { from, to } = wholeLines(text, selection);
  const lines = text.slice(from, to).split('\n');
  const all = lines.every((line, i) => line.startsWith(prefixFor(i)));
  const changed = lines.map((line, i) => (all ? line.slice(prefixFor(i).length) : `${prefixFor(i)}${line}`));
  const insert = changed.join('\n');
  if (lines.length === 1) {
    // One line: the caret stays where it was in the text, moved by the prefix.
    const shift = all ? -prefixFor(0).length : prefixFor(0).length;
    const clamp = (at: number) => Math.max(from, Math.min(from + insert.length, at + shift));
    return { from, to, insert, select: { start: clamp(selection.start), end: clamp(selection.end) } };
  }
  return { from, to, insert, select: { start: from, end: from + insert.length } };
}

/** The text with an edit applied: what the field holds after it. */
export function applyEdit(text: string, edit: Edit): string {
  return text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
}

/** Ctrl/⌘ + this key runs the action. */
export const SHORTCUTS: Partial<Record<string, MarkdownAction>> = { b: 'bold', i: 'italic', k: 'link' };
