// The ranking refresh row: how long the server's own refreshes take on a large database, and
// what a request waits meanwhile (issue 14, item 6). The server refreshes at start and every
// RANK_REFRESH_HOURS (72 s here, the least it takes) and logs each refresh with its length; a
// probe asks /api/health every few milliseconds and a rating is posted every few dozen, each
// waiting for the previous answer, and every request is timed from outside. Requests are counted
// from the end of the start-up refresh (until then the server is still warming up); one whose
// time overlaps a later refresh counts as during it.
import os from 'node:os';
import { startBeatnik, stop } from './processes.ts';

/** Between two health checks, start to start. */
const HEALTH_EVERY_MS = 10;
/** Between two ratings, start to start: a site with some writing going on. */
const WRITE_EVERY_MS = 50;

export interface Latencies {
  count: number;
  worst: number;
  p99: number;
}

export interface RefreshRow {
  /** Posts each refresh scored, and its length, from the server's log; the start-up one first. */
  refreshes: Array<{ posts: number; ms: number }>;
  health: { during: Latencies; outside: Latencies };
  writes: { during: Latencies; outside: Latencies };
  /** The machine's 1-minute load average at the start and at the end. */
  loadAverage: [number, number];
}

export interface RefreshLoad {
  /** Rating requests for articles of the database, signed in. */
  rate(url: string): Promise<Response>;
}

interface Timed {
  at: number;
  ms: number;
}

/** The value `share` of the way up `sorted` (ascending): 0.99 for the p99; NaN when it is empty. */
export function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN;
}

function latencies(samples: Timed[]): Latencies {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { count: sorted.length, worst: Math.round(sorted.at(-1) ?? NaN), p99: Math.round(percentile(sorted, 0.99)) };
}

/** Requests one after the other, one every `everyMs` at most, until `done()`; each timed. */
async function probe(send: () => Promise<Response>, everyMs: number, done: () => boolean): Promise<Timed[]> {
  const timed: Timed[] = [];
  while (!done()) {
    const at = Date.now();
    const started = performance.now();
    const res = await send();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${res.url} answered ${res.status} during the refresh row`);
    const ms = performance.now() - started;
    timed.push({ at, ms });
    if (ms < everyMs) await new Promise((resolve) => setTimeout(resolve, everyMs - ms));
  }
  return timed;
}

/**
 * Starts `bundle` on `dataDir`, probes it until it has logged `periodic` refreshes after the one
 * at start, then stops it.
 */
export async function measureRefreshes(bundle: string, dataDir: string, periodic: number, load: RefreshLoad): Promise<RefreshRow> {
  const windows: Array<{ from: number; to: number; posts: number; ms: number }> = [];
  let failed: string | undefined;
  let done = false;
  let allSeen!: () => void;
  const seen = new Promise<void>((resolve) => { allSeen = resolve; });
  const loadBefore = os.loadavg()[0]!;
  const server = await startBeatnik(bundle, dataDir, { RANK_REFRESH_HOURS: '0.02', LOG_LEVEL: 'info' }, (line) => {
    const entry = JSON.parse(line) as { msg: string; time: string | number; ms?: number; posts?: number; err?: { message: string } };
    if (entry.msg === 'rankings refresh failed') failed = entry.err?.message ?? 'unknown';
    if (!entry.msg.startsWith('rankings refresh')) return;
    const to = new Date(entry.time).getTime();
    windows.push({ from: to - entry.ms!, to, posts: entry.posts!, ms: entry.ms! });
    console.log(`refresh ${windows.length}: ${entry.posts} posts in ${entry.ms} ms`);
    if (windows.length > periodic || failed) allSeen();
  });
  const url = server.url;
  const isDone = () => done;
  const health = probe(() => fetch(`${url}/api/health`), HEALTH_EVERY_MS, isDone);
  const writes = probe(() => load.rate(url), WRITE_EVERY_MS, isDone);
  try {
    await seen;
  } finally {
    done = true;
    await Promise.allSettled([health, writes]);
    await stop(server.child);
  }
  if (failed) throw new Error(`a ranking refresh failed: ${failed}`);
  const [startup, ...measured] = windows;
  const during = (s: Timed) => measured.some((w) => s.at < w.to && s.at + s.ms > w.from);
  const split = (all: Timed[]) => {
    const samples = all.filter((s) => s.at >= startup!.to);
    return { during: latencies(samples.filter(during)), outside: latencies(samples.filter((s) => !during(s))) };
  };
  return {
    refreshes: windows.map(({ posts, ms }) => ({ posts, ms })),
    health: split(await health),
    writes: split(await writes),
    loadAverage: [loadBefore, os.loadavg()[0]!],
  };
}
