// The read cache of an instance that shares its database with others (server/instances.ts). An
// invalidation here is told to the others; one heard from them empties only this cache, and is
// never told again (no echo). Until the channel listens, and whenever it is down, an invalidation
// may go unheard: lists are then read fresh, bypassing the cache, rather than served stale.
import type { ReadCache } from './read-cache.ts';

export interface SharedReadCache extends ReadCache {
  /** Another instance wrote; only these addresses changed, when it says which. */
  heard(addresses?: readonly string[]): void;
  /** Whether the other instances' invalidations reach this one. */
  listening(on: boolean): void;
}

export function shareReadCache(cache: ReadCache, tellOthers: (addresses?: readonly string[]) => void): SharedReadCache {
  let listening = false;
  return {
    // Bypassed while deaf to the others: those reads count neither as hits nor as misses.
    middleware: (req, res, next) => (listening ? cache.middleware(req, res, next) : next()),
    has: (req) => listening && cache.has(req),
    invalidate() {
      cache.invalidate();
      tellOthers();
    },
    forget(addresses) {
      cache.forget(addresses);
      tellOthers(addresses);
    },
    get size() {
      return cache.size;
    },
    generation: () => (listening ? cache.generation() : undefined),
    ttlMs: cache.ttlMs,
    lookup: (key, countAs) => (listening ? cache.lookup(key, countAs) : undefined),
    mark: () => cache.mark(),
    counts: cache.counts,
    // Not listening, nothing is kept: the entry is only sent.
    store: (key, mark, body, type, memo) => cache.store(key, listening ? mark : Number.NaN, body, type, memo),
    heard(addresses) {
      if (addresses) cache.forget(addresses);
      else cache.invalidate();
    },
    listening(on) {
      // What was stored before the channel dropped may have missed an invalidation since.
      cache.invalidate();
      listening = on;
    },
  };
}
