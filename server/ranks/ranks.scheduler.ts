// The in-process timer: recompute ranks at start and every RANK_REFRESH_HOURS.
import type { AppContext } from '../context.ts';
import { pruneVisitLog, recomputeRanks } from './ranks.refresh.ts';

export function refreshRanksNow(ctx: AppContext): void {
  try {
    const result = recomputeRanks(ctx.sqlite);
    const pruned = pruneVisitLog(ctx.sqlite);
    ctx.readCache?.invalidate();
    ctx.log.info({ ...result, pruned_visits: pruned }, 'rankings refreshed');
  } catch (err) {
    ctx.log.error({ err }, 'rankings refresh failed');
  }
}

/** Returns a function that stops the timer. */
export function scheduleRankRefresh(ctx: AppContext): () => void {
  refreshRanksNow(ctx);
  const period = Math.max(60_000, ctx.config.rankRefreshHours * 3_600_000);
  const timer = setInterval(() => refreshRanksNow(ctx), Math.min(period, 2 ** 31 - 1));
  timer.unref();
  return () => clearInterval(timer);
}
