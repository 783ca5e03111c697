// One benchmark row: autocannon against a server, with the CPU time that server spent on it, and
// the bare-Express ceiling measured right before and right after it. Other work on a shared
// machine moves req/s a lot; CPU time per request much less, so both are kept.
import os from 'node:os';
import autocannon from 'autocannon';
import { cpuMs } from './processes.ts';
import { steadyRun, type SteadyLoad } from './steady.ts';

/** A server under load: where to send requests, and the process whose CPU time they cost. */
export interface Server {
  url: string;
  pid: number;
  /** Other processes doing the server's work, whose CPU time counts too (PostgreSQL's backends). */
  helpers?: () => number[];
}

/** CPU time of the server and its helpers so far, in ms. */
function serverCpuMs(server: Server): number {
  return cpuMs(server.pid) + (server.helpers?.() ?? []).reduce((sum, pid) => sum + cpuMsOrZero(pid), 0);
}

/** A helper may exit between listing and reading (a backend closing): it then adds nothing. */
function cpuMsOrZero(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
}

/** What one autocannon instance sends: a path on the server plus autocannon's own options. */
export interface Load {
  path: string;
  connections: number;
  options?: Partial<autocannon.Options>;
}

export type { SteadyLoad } from './steady.ts';

const isSteady = (load: Load | SteadyLoad): load is SteadyLoad => 'rate' in load;

/** One measured run of a load. */
export interface Sample {
  rps: number;
  /** Responses in the run, whatever their status. */
  requests: number;
  /** Requests sent: the answered ones and those still in flight when the run stopped. */
  sent: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  /** The server's CPU time over the run, in ms. */
  cpuMs: number;
  /** That CPU time divided by the measured load's requests, in µs. */
  cpuUs: number;
  /** Requests per second each side load actually ran at (its `overallRate` is only asked for). */
  sideRps: number[];
}

const summary = (result: autocannon.Result) => ({
  rps: Math.round(result.requests.average),
  requests: result.requests.total,
  sent: (result.requests as { sent?: number }).sent ?? result.requests.total, // missing from autocannon's types
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts + result.non2xx,
});

/**
 * Runs `load` for `seconds` (autocannon's connections, or requests at a steady rate), with any
 * side loads running against the same server at the same time. The server's CPU in that window
 * is all charged to `load`'s requests, side loads included.
 */
export async function sample(server: Server, seconds: number, load: Load | SteadyLoad, side: Load[] = []): Promise<Sample> {
  const run = (l: Load) => autocannon({ url: server.url + l.path, connections: l.connections, duration: seconds, ...l.options });
  const cpuBefore = serverCpuMs(server);
  const measure = async (): Promise<ReturnType<typeof summary>> => {
    if (!isSteady(load)) return summary(await run(load));
    const steady = await steadyRun(server.url, load, seconds);
    return { ...steady, rps: Math.round(steady.requests / seconds) };
  };
  const [measured, ...others] = await Promise.all([measure(), ...side.map(run)]);
  const cpu = serverCpuMs(server) - cpuBefore;
  return {
    ...measured,
    errors: measured.errors + others.reduce((sum, r) => sum + summary(r).errors, 0),
    cpuMs: cpu,
    cpuUs: measured.requests ? Math.round((cpu * 1000) / measured.requests) : NaN,
    sideRps: others.map((r) => Math.round(r.requests.total / seconds)),
  };
}

export interface Row extends Sample {
  name: string;
  /** Requests sent while warming up, before the measured run. */
  warmupSent: number;
  /** The machine's 1-minute load average as the row ended: how much else was running. */
  loadAverage: number;
  /**
   * With side loads: the server's CPU per request of this row's own load with everything charged
   * to it (`cpuUs` is then its share alone: the side loads' CPU, measured on their own right
   * after, taken out).
   */
  allCpuUs?: number;
  /** The ceiling's runs right before and right after this row. */
  ceiling: { before: Sample; after: Sample };
}

export interface Bench {
  server: Server;
  ceiling: Server;
  /** Seconds of each measured run (the row's and each ceiling's). */
  seconds: number;
  /** Seconds of each row's load before it is measured, not counted. */
  warmupSeconds: number;
  connections: number;
}

/**
 * Measures rows one after the other, each between two runs of the ceiling: the run after a row
 * is the run before the next, so the ceiling any row is compared with was measured within a
 * warm-up's length of it.
 */
export function rowRunner(bench: Bench): (name: string, load: Load | SteadyLoad | string, side?: Load[]) => Promise<Row> {
  const ceilingLoad: Load = { path: '/', connections: bench.connections };
  let before: Promise<Sample> | undefined;
  return async (name, load, side = []) => {
    const main = typeof load === 'string' ? { path: load, connections: bench.connections } : load;
    before ??= sample(bench.ceiling, bench.warmupSeconds, ceilingLoad).then(() => sample(bench.ceiling, bench.seconds, ceilingLoad));
    const ceilingBefore = await before;
    const warmup = await sample(bench.server, bench.warmupSeconds, main, side);
    const measured = await sample(bench.server, bench.seconds, main, side);
    const after = sample(bench.ceiling, bench.seconds, ceilingLoad);
    before = after;
    const row: Row = {
      name, ...measured, warmupSent: warmup.sent, loadAverage: os.loadavg()[0]!, ceiling: { before: ceilingBefore, after: await after },
    };
    if (side.length > 0) {
      const [first, ...rest] = side;
      const alone = await sample(bench.server, bench.seconds, first!, rest);
      row.allCpuUs = row.cpuUs;
      row.cpuUs = Math.round(((row.cpuMs - alone.cpuMs) * 1000) / row.requests);
    }
    console.log(formatRow(row));
    return row;
  };
}

/** The ceiling a row is compared with: the mean of its runs before and after the row. */
export function ceilingOf(row: Row): { rps: number; cpuUs: number } {
  const { before, after } = row.ceiling;
  return { rps: (before.rps + after.rps) / 2, cpuUs: (before.cpuUs + after.cpuUs) / 2 };
}

function formatRow(row: Row): string {
  const ceiling = ceilingOf(row);
  const percent = (x: number) => `${Math.round(x * 100)} %`.padStart(5);
  return `${row.name.padEnd(46)} ${String(row.rps).padStart(6)} req/s ${percent(row.rps / ceiling.rps)}`
    + `  ${String(row.cpuUs).padStart(5)} µs CPU ${percent(ceiling.cpuUs / row.cpuUs)}`
    + `${row.allCpuUs ? ` (${row.allCpuUs} µs with the side loads')` : ''}`
    + `  p50 ${row.p50} p99 ${row.p99} ms  ceiling ${row.ceiling.before.rps}/${row.ceiling.after.rps} req/s`
    + ` ${Math.round(ceiling.cpuUs)} µs`
    + `${row.sideRps.length ? `  side loads ${row.sideRps.join(', ')}/s` : ''}${row.errors ? `  (${row.errors} errors)` : ''}`;
}
