// Mojo over time as an inline SVG line (no chart library): black on white, drawn from the ledger's
// events the page holds, the same markup on the server and in the browser. The caption is the
// chart's text alternative.
import type { MojoEvent } from '../../types.ts';

const WIDTH = 320;
const HEIGHT = 80;
const PAD = 4;

/** The points, oldest first: the mojo before the oldest event held, then after each. */
export function mojoSeries(eventsNewestFirst: readonly MojoEvent[]): number[] {
  const oldest = eventsNewestFirst.at(-1);
  if (!oldest) return [];
  const start = Math.round((oldest.mojo_after - oldest.delta) * 100) / 100;
  return [start, ...[...eventsNewestFirst].reverse().map((e) => e.mojo_after)];
}

/** What the line shows, in words. */
export function mojoChartSummary(series: readonly number[]): string {
  if (series.length < 2) return 'No change of mojo yet.';
  const fmt = (n: number) => n.toFixed(2);
  return `Mojo went from ${fmt(series[0]!)} to ${fmt(series.at(-1)!)} over ${series.length - 1} `
    + `${series.length === 2 ? 'change' : 'changes'}; lowest ${fmt(Math.min(...series))}, highest ${fmt(Math.max(...series))}.`;
}

export function MojoChart({ events }: { events: readonly MojoEvent[] }) {
  const series = mojoSeries(events);
  const summary = mojoChartSummary(series);
  if (series.length < 2) return <p className="mojo-chart__empty">{summary}</p>;
  const low = Math.min(0, ...series);
  const high = Math.max(0, ...series);
  const span = high - low || 1;
  const x = (i: number) => PAD + (i * (WIDTH - 2 * PAD)) / (series.length - 1);
  const y = (v: number) => PAD + ((high - v) * (HEIGHT - 2 * PAD)) / span;
  const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <figure className="mojo-chart">
      <svg className="mojo-chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT}
        role="img" aria-labelledby="mojo-chart-caption" data-points={series.length}>
        <line x1={PAD} x2={WIDTH - PAD} y1={y(0)} y2={y(0)} stroke="currentColor" strokeWidth="0.5" strokeDasharray="3 3" />
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
      </svg>
      <figcaption id="mojo-chart-caption" className="mojo-chart__caption">{summary}</figcaption>
    </figure>
  );
}
