// Several instances on one PostgreSQL database behind a load balancer (docs/scaling.md, Several
// instances). Besides the database itself they share:
// - cache invalidations: each one is told to the others through NOTIFY (postgres.channel.ts), so a
//   write on one instance shows on every other within a second;
// - the periodic jobs: one leader at a time runs them (postgres.leader.ts), with the pruning of
//   the throttles' counters beside them;
// - the throttles' counts, kept in the database (rate-limits.ts), and visits, which always were.
import type { ReadCache } from './cache/read-cache.ts';
import { shareReadCache } from './cache/shared-read-cache.ts';
import type { AppContext } from './context.ts';
import { openCacheChannel, type Channel } from './postgres/postgres.channel.ts';
import { schedulePruning } from './postgres/postgres.counters.ts';
import { leadWhenFree, type PeriodicJobs } from './postgres/postgres.leader.ts';

export interface Peers {
  /** The read cache, kept coherent with the other instances'. */
  readonly readCache: ReadCache;
  /** Runs the jobs whenever this instance leads; resolves to the function that stops them. */
  leadPeriodicJobs(start: PeriodicJobs): Promise<() => Promise<void>>;
  /** Tells the others of what is pending, then stops listening to them. */
  close(): Promise<void>;
}

type Base = Pick<AppContext, 'config' | 'db' | 'log'>;

/** For a server on PostgreSQL (`config.databaseUrl`): other instances may share its database. */
export async function joinPeers(ctx: Base, cache: ReadCache): Promise<Peers> {
  const url = ctx.config.databaseUrl!;
  let channel: Channel | undefined;
  const readCache = shareReadCache(cache, (addresses) => channel?.publish(addresses));
  const opened = await openCacheChannel(ctx.db, url, ctx.log, readCache);
  channel = opened;
  return {
    readCache,
    async leadPeriodicJobs(start) {
      const leadership = await leadWhenFree(url, ctx.log, () => {
        const stops = [start(), schedulePruning(ctx.db, ctx.log)];
        return async () => { await Promise.all(stops.map((stop) => stop())); };
      });
      return () => leadership.stop();
    },
    close: () => opened.close(),
  };
}
