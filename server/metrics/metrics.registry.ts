// What GET /metrics tells Prometheus (docs/operations.md, Metrics): one Registry per running
// server, made at start-up (server.ts) and reached through the context, so that several servers
// in one process (the tests) keep their figures apart. Only the request timing runs per request;
// everything else is read when scraped: the caches' counts, the jobs table, the last refresh.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { CacheCounts, CountedCache } from '../cache/read-cache.ts';
import type { JobCount } from '../jobs/jobs.service.ts';
import type { Logger } from '../log.ts';
import { RequestHistogram } from './metrics.requests.ts';

/** When the last backup was made, or undefined while none was (then the gauge says 0). */
export type LastBackup = () => Date | undefined | Promise<Date | undefined>;

export interface Metrics {
  readonly registry: Registry;
  /** One request answered: its method, its route's label (metrics.http.ts), status and seconds. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A ranking refresh ended whole, at `at`, after `seconds`. */
  rankRefreshed(seconds: number, at: Date): void;
  /** Hands in where `beatnik_last_backup_timestamp_seconds` comes from: the gauge exists from then on. */
  reportLastBackup(source: LastBackup): void;
}

export interface MetricsSources {
  /** The read cache's counts (cache/read-cache.ts). */
  cacheCounts?: CacheCounts;
  /** The jobs table's counts by kind and state, asked at each scrape. */
  countJobs(): Promise<readonly JobCount[]>;
  /** Each queue's kinds of job (server/background.ts, JOB_QUEUES); any other kind counts as 'other'. */
  queues: Readonly<Record<string, readonly string[]>>;
  log: Logger;
}

/** Methods Express routes; any other (Node's parser knows some thirty) is one label, 'other'. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const CACHES: readonly CountedCache[] = ['lists', 'pages', 'articles', 'documents'];
const QUEUE_STATES = ['pending', 'failed'] as const;

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  // Standard names, no prefix (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, …): the
  // usual Node.js dashboards read them as they are.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new RequestHistogram(registry);

  const counts = sources.cacheCounts;
  for (const [name, field] of [['beatnik_cache_hits_total', 'hits'], ['beatnik_cache_misses_total', 'misses']] as const) {
    new Counter({
      name,
      help: `Read cache ${field} by cache: lists (and an article's rank, an author's mojo ledger), pages, articles, documents (feeds, sitemaps)`,
      labelNames: ['cache'] as const,
      registers,
      collect() {
        this.reset();
        for (const cache of CACHES) this.inc({ cache }, counts?.[cache][field] ?? 0);
      },
    });
  }

  const queueOf = new Map(Object.entries(sources.queues).flatMap(([queue, kinds]) => kinds.map((kind) => [kind, queue] as const)));
  const queueNames = [...Object.keys(sources.queues), 'other'];
  new Gauge({
    name: 'beatnik_queue_depth',
    help: 'Background jobs waiting (pending) or given up on (failed), by queue: mail, federation, other',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      let rows: readonly JobCount[];
      try {
        rows = await sources.countJobs();
      } catch (err) {
        // The database is down: the other figures still go out, these are absent from the scrape.
        this.reset();
        sources.log.warn({ err: (err as Error).message }, 'metrics: the jobs table could not be counted');
        return;
      }
      const depth = new Map(queueNames.flatMap((queue) => QUEUE_STATES.map((state) => [`${queue} ${state}`, 0] as [string, number])));
      for (const row of rows) {
        const key = `${queueOf.get(row.kind) ?? 'other'} ${row.state}`;
        if (depth.has(key)) depth.set(key, depth.get(key)! + row.n);
      }
      this.reset();
      for (const [key, n] of depth) {
        const [queue, state] = key.split(' ') as [string, string];
        this.set({ queue, state }, n);
      }
    },
  });

  const refreshSeconds = new Gauge({
    name: 'beatnik_rank_refresh_duration_seconds',
    help: 'How long the last whole ranking refresh run by this instance took (0: none yet)',
    registers,
  });
  const refreshedAt = new Gauge({
    name: 'beatnik_rank_refresh_timestamp_seconds',
    help: 'When the last whole ranking refresh run by this instance ended, in Unix seconds (0: none yet)',
    registers,
  });

  const backupName = 'beatnik_last_backup_timestamp_seconds';
  let backupGauge: Gauge | undefined;

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.record(METHODS.has(method) ? method : 'other', route, status, seconds);
    },
    rankRefreshed(seconds, at) {
      refreshSeconds.set(seconds);
      refreshedAt.set(at.getTime() / 1000);
    },
    reportLastBackup(source) {
      if (backupGauge) registry.removeSingleMetric(backupName);
      backupGauge = new Gauge({
        name: backupName,
        help: 'When the last backup archive was made, in Unix seconds (0: none yet)',
        registers,
        async collect() {
          try {
            const at = await source();
            this.set(at ? at.getTime() / 1000 : 0);
          } catch (err) {
            // Kept at what it said last: the rest of the scrape still goes out.
            sources.log.warn({ err: (err as Error).message }, 'metrics: the last backup\'s time could not be read');
          }
        },
      });
    },
  };
}
