// The Lighthouse block of docs/performance.md: one row per page, the median run of each.
import type { GeneratedBlock } from '../performance-doc.ts';

export const LIGHTHOUSE_BLOCK: GeneratedBlock = { name: 'lighthouse', script: 'lighthouse', heading: '## Lighthouse (mobile)' };

/** The target of DESIGN.md (Edges): mobile performance at least 95 on every measured page. */
export const TARGET_SCORE = 95;

export interface PageScore {
  page: string;
  /** 0–100. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
}

export interface LighthouseRun {
  date: string;
  lighthouseVersion: string;
  browser: string;
  benchmarkIndex: number;
  runs: number;
  data: string;
  pages: PageScore[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The run with the middle score (the lower middle of an even count). */
export function medianRun(runs: PageScore[]): PageScore {
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error('no Lighthouse run to report');
  return middle;
}

export function renderTable(pages: PageScore[]): string {
  const rows = pages.map((p) => `| ${p.page} | ${p.score >= TARGET_SCORE ? p.score : `**${p.score}**`} | ${seconds(p.fcpMs)} | `
    + `${seconds(p.lcpMs)} | ${Math.round(p.tbtMs)} ms | ${p.cls.toFixed(3)} | ${seconds(p.speedIndexMs)} |`);
  return ['| page | performance | FCP | LCP | TBT | CLS | Speed Index |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

export function renderLighthouse(run: LighthouseRun): string {
  const missed = run.pages.filter((p) => p.score < TARGET_SCORE).map((p) => p.page);
  return `Measured by \`npm run lighthouse\` on ${run.date}: Lighthouse ${run.lighthouseVersion}, mobile preset
(simulated slow 4G, 4× CPU slowdown, 412 × 823 screen), ${run.browser}, headless; the production
build and server on ${run.data}. ${run.runs === 1 ? 'One run per page' : `Median of ${run.runs} runs per page`};
Chromium's benchmark index on this machine: ${Math.round(run.benchmarkIndex)}.

${renderTable(run.pages)}

Target: performance ≥ ${TARGET_SCORE} on every page: ${missed.length === 0 ? 'met' : `**missed** on ${missed.join(', ')}`}.
`;
}
