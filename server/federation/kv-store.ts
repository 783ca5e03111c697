// Fedify's KvStore on Beatnik's own database (DESIGN.md: its key–value store lives there, on both
// dialects): the remote documents and keys it caches, the activities it has already handled, its
// circuit breaker's state. Keys are arrays of strings, kept as their JSON; values as JSON.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { DB } from '../schema.ts';
import { deleteExpiredKvValues, deleteKvValue, findKvValue, listKvValues, swapKvValue, upsertKvValue } from './federation-kv.repo.ts';

/** One in this many writes also sweeps expired entries. */
const SWEEP_EVERY = 50;

export class DatabaseKvStore implements KvStore {
  readonly #db: DB;
  #writes = 0;

  constructor(db: DB) {
    this.#db = db;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const value = await findKvValue(this.#db, keyText(key));
    return value === undefined ? undefined : JSON.parse(value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await upsertKvValue(this.#db, keyText(key), JSON.stringify(value), expiry(options));
    await this.#sweepNow();
  }

  async delete(key: KvKey): Promise<void> {
    await deleteKvValue(this.#db, keyText(key));
  }

  cas = async (key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> => {
    const expected = expectedValue === undefined ? undefined : JSON.stringify(expectedValue);
    // A new value of undefined removes the key (Fedify's circuit breaker clears a server's state so).
    const value = newValue === undefined ? undefined : JSON.stringify(newValue);
    return await swapKvValue(this.#db, keyText(key), expected, value, expiry(options));
  };

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    // ["a","b"] is the JSON '["a","b"]': the keys under ["a"] start with '["a",'.
    const exact = prefix === undefined || prefix.length === 0 ? undefined : keyText(prefix);
    const start = exact === undefined ? '[' : `${exact!.slice(0, -1)},`;
    for (const row of await listKvValues(this.#db, exact, start)) {
      yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
    }
  }

  async #sweepNow(): Promise<void> {
    if (++this.#writes % SWEEP_EVERY === 0) await deleteExpiredKvValues(this.#db);
  }
}

function keyText(key: KvKey): string {
  return JSON.stringify(key);
}

function expiry(options: KvStoreSetOptions | undefined): string | null {
  if (!options?.ttl) return null;
  return new Date(Date.now() + options.ttl.total('millisecond')).toISOString();
}
