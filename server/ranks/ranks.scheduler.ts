// The in-process timer: recompute ranks at start and every RANK_REFRESH_HOURS.
import type { AppContext } from '../context.ts';
import { pruneVisitLog, recomputeRanks } from './ranks.service.ts';

export async function refreshRanksNow(ctx: AppContext): Promise<void> {
  try {
    const result = await recomputeRanks(ctx.db);
    const pruned = await pruneVisitLog(ctx.db);
    ctx.readCache?.invalidate();
    ctx.log.info({ ...result, pruned_visits: pruned }, 'rankings refreshed');
  } catch (err) {
    ctx.log.error({ err }, 'rankings refresh failed');
  }
}

/** Returns a function that stops the timer and waits for a refresh under way. */
export function scheduleRankRefresh(ctx: AppContext): () => Promise<void> {
  let running = refreshRanksNow(ctx);
  // config.ts keeps the period between 72 s and a week.
  const timer = setInterval(() => {
    running = running.then(() => refreshRanksNow(ctx));
  }, ctx.config.rankRefreshHours * 3_600_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    return running;
  };
}
