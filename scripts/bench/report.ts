// docs/performance.md from one benchmark run: the table and each target met or missed.
import type { GeneratedBlock } from '../performance-doc.ts';

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface RunSummary {
  rows: Row[];
  ceilingRps: number;
  coldStartMs: number;
  startRssMb: number;
  idleRssMb: number;
  idleWaitS: number;
  loadedRssMb: number;
  refreshMs: number;
  refreshedPosts: number;
  duration: number;
  connections: number;
  machine: string;
  size: Record<string, number>;
}

const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

/** The bench's block of docs/performance.md; the analysis around it is written by hand. */
export const BENCH_BLOCK: GeneratedBlock = { name: 'measurements', script: 'bench' };

export function renderReport(run: RunSummary): string {
  const table = run.rows.map((row, i) => {
    const share = i === 0 ? '100 %' : `${Math.round((row.rps / run.ceilingRps) * 100)} %`;
    return `| ${row.name} | ${row.rps} | ${row.p50} | ${row.p99} | ${share} | ${row.errors} |`;
  });
  const reads = run.rows.filter((r) => r.name.startsWith('GET'));
  const writes = run.rows.filter((r) => r.name.startsWith('POST'));
  const slowReads = reads.filter((r) => r.rps < 0.6 * run.ceilingRps || r.p99 > 50);
  const slowWrites = writes.filter((r) => r.rps < 2000);
  const missedBy = (rows: Row[]) => (rows.length === 0 ? 'met' : `**missed**: ${rows.map((r) => r.name).join('; ')}`);
  return `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${run.machine}.
Data: ${Object.entries(run.size).map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`).join(', ')}
(\`npm run seed\`). Each row: autocannon, ${run.connections} connections, ${run.duration} s, loopback,
against the real server (\`RATE_LIMITS=off\`, \`LOG_LEVEL=warn\`); the load generator shares the
machine's cores with the server.

| endpoint | req/s | p50 ms | p99 ms | of ceiling | errors |
|---|---|---|---|---|---|
${table.join('\n')}

| measure | value |
|---|---|
| cold start (spawn to first /api/health) | ${run.coldStartMs} ms |
| RSS right after start (start-up ranking refresh included) | ${run.startRssMb} MB |
| idle RSS (${run.idleWaitS} s after start, no requests) | ${run.idleRssMb} MB |
| RSS after the load | ${run.loadedRssMb} MB |
| ranking refresh | ${run.refreshMs} ms over ${run.refreshedPosts.toLocaleString('en-US')} posts |

## Targets

| target | result |
|---|---|
| public reads ≥ 60 % of the ceiling with p99 ≤ 50 ms | ${missedBy(slowReads)} |
| writes ≥ 2,000/s | ${missedBy(slowWrites)} |
| ranking refresh over 100k posts ≤ 1 s | ${mark(run.refreshMs <= 1000)} |
| idle RSS ≤ 80 MB | ${mark(run.idleRssMb <= 80)} |
`;
}
