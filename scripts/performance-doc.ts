// docs/performance.md is written by two scripts, `npm run bench` (server throughput) and
// `npm run lighthouse` (page loads). Each owns one marked block and rewrites only that block, so
// neither erases the other's figures nor the hand-written analysis around them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const PERFORMANCE_DOC = 'docs/performance.md';

export interface GeneratedBlock {
  /** The block's name in its markers, e.g. `measurements`. */
  name: string;
  /** The npm script that writes it, e.g. `bench`. */
  script: string;
  /** Written above the block when the file does not have it yet. */
  heading?: string;
}

const startOf = (block: GeneratedBlock) => `<!-- ${block.name}: written by npm run ${block.script} -->`;
const endOf = (block: GeneratedBlock) => `<!-- end of ${block.name} -->`;

/** The document with this block's content replaced; a document without the block gets it
 * appended at the end, under its heading. */
export function withBlock(existing: string, block: GeneratedBlock, content: string): string {
  const start = startOf(block);
  const end = endOf(block);
  const marked = `${start}\n${content.trim()}\n${end}`;
  const from = existing.indexOf(start);
  const to = existing.indexOf(end, from);
  if (from !== -1 && to !== -1) return existing.slice(0, from) + marked + existing.slice(to + end.length);
  const head = existing.trim() ? existing.trimEnd() : '# Performance';
  return `${head}\n\n${block.heading ? `${block.heading}\n\n` : ''}${marked}\n`;
}

export function writeBlock(block: GeneratedBlock, content: string, file = PERFORMANCE_DOC): void {
  writeFileSync(file, withBlock(existsSync(file) ? readFileSync(file, 'utf8') : '', block, content));
}
