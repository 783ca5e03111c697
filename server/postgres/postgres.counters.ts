// Counters every instance shares, in the rate_limits table (migrations/postgres/0005): the store
// of the login and request throttles when several instances serve one database.
// rate-limiter-flexible's RateLimiterPostgres keeps them: one atomic upsert per count, in
// windows that end by themselves. Its statements go through Kysely's pool like every other one,
// it creates no table (the migration did) and runs no timer of its own: the leader prunes.
import { createHash } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DB } from '../schema.ts';
import type { Logger } from '../log.ts';

const TABLE = 'rate_limits';

/** Longer keys (an IPv6 address with an account, a forged X-Forwarded-For) are stored hashed. */
const MAX_KEY_LENGTH = 64;

/** Expired counters go every 10 minutes: they no longer count, they only take room. */
const PRUNE_EVERY_MS = 10 * 60_000;

class BoundedKeyLimiter extends RateLimiterPostgres {
  override getKey(key: string | number): string {
    const text = String(key);
    return super.getKey(text.length <= MAX_KEY_LENGTH ? text : createHash('sha256').update(text).digest('base64url'));
  }
}

/** rate-limits.ts's CounterFactory over this database (typed by shape: rate-limits.ts imports this module). */
export function postgresCounters(db: DB): (name: string, seconds: number) => RateLimiterAbstract {
  // The library sends pg's query objects ({text, values}) and reads pg's results (rows, rowCount).
  const client = {
    async query({ text, values }: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      const affected = result.numAffectedRows;
      return { rows: result.rows, rowCount: affected === undefined ? result.rows.length : Number(affected) };
    },
  };
  return (name, seconds) => new BoundedKeyLimiter({
    storeClient: client, storeType: 'pool', tableName: TABLE, tableCreated: true, clearExpiredByTimeout: false,
    keyPrefix: name, duration: seconds, points: 0,
  });
}

/** Deletes the counters whose window has ended; returns how many. */
export async function pruneCounters(db: DB, now = Date.now()): Promise<number> {
  const result = await sql`DELETE FROM ${sql.table(TABLE)} WHERE expire < ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The leader's pruning timer; returns the function that stops it. */
export function schedulePruning(db: DB, log: Logger): () => Promise<void> {
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => pruneCounters(db)).then(
      (pruned) => log.debug({ pruned }, 'expired throttle counters pruned'),
      (err: unknown) => log.warn({ err }, 'pruning throttle counters failed'));
  }, PRUNE_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    return running;
  };
}
