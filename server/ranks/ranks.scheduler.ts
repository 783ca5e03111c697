// The in-process timer: recompute ranks at start and every RANK_REFRESH_HOURS, off the request
// path. How one refresh runs depends on the database, so server.ts hands it in: on SQLite a
// child process with its own connection (sqlite/sqlite.ranks-refresh.ts), because a query there
// holds the event loop while it runs.
import type { AppContext } from '../context.ts';
import type { DB } from '../schema.ts';
import { pruneVisitLog, recomputeRanks, type RefreshSummary } from './ranks.service.ts';

/** One refresh; `signal` aborts at shutdown, and the refresh then stops after its current batch. */
export type RankRefresh = (signal: AbortSignal) => Promise<RefreshSummary>;

/**
 * A refresh the database runs by itself: on PostgreSQL one transaction of INSERT … SELECT, which
 * readers do not wait for (they see the previous scores until it commits) and the server awaits
 * without holding its event loop; then the visit log is pruned a batch at a time.
 */
export function refreshRanksInDatabase(db: DB): RankRefresh {
  return async (signal) => {
    const { posts, ms } = await recomputeRanks(db);
    const pruned = await pruneVisitLog(db, () => !signal.aborted);
    return { posts, ms, pruned_visits: pruned.pruned, complete: pruned.complete };
  };
}

export async function refreshRanksNow(ctx: AppContext, refresh: RankRefresh, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  try {
    const started = performance.now();
    const { complete, ...result } = await refresh(signal);
    ctx.readCache?.invalidate();
    // Timed whole, the visit log's pruning included: what a refresh takes of the machine.
    if (complete) ctx.metrics?.rankRefreshed((performance.now() - started) / 1000, new Date());
    if (complete) ctx.log.info(result, 'rankings refreshed');
    else ctx.log.info(result, 'rankings refresh stopped for shutdown');
  } catch (err) {
    ctx.log.error({ err }, 'rankings refresh failed');
  }
}

export interface RankSchedule {
  /** Settles when the refresh run at start has ended, however it ended. */
  first: Promise<void>;
  /** Stops the timer; resolves once a refresh under way has stopped. */
  stop(): Promise<void>;
}

export function scheduleRankRefresh(ctx: AppContext, refresh: RankRefresh): RankSchedule {
  const stopping = new AbortController();
  const first = refreshRanksNow(ctx, refresh, stopping.signal);
  let running = first;
  // config.ts keeps the period between 72 s and a week.
  const timer = setInterval(() => {
    running = running.then(() => refreshRanksNow(ctx, refresh, stopping.signal));
  }, ctx.config.rankRefreshHours * 3_600_000);
  timer.unref();
  return {
    first,
    stop() {
      clearInterval(timer);
      stopping.abort();
      return running;
    },
  };
}
