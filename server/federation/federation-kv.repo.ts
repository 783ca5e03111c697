// The SQL of Fedify's key–value store (federation_kv, migrations/0022_federation.ts): a row per
// key, its JSON value, and an expiry that reads treat as absence (expired rows are swept by writes).
import { nowIso } from '../db.ts';
import type { ExpressionBuilder } from 'kysely';
import type { Database, DB } from '../schema.ts';

export interface KvRow {
  key: string;
  value: string;
}

export async function findKvValue(db: DB, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('federation_kv').select(['value', 'expires_at']).where('key', '=', key).executeTakeFirst();
  if (!row || (row.expires_at !== null && row.expires_at <= nowIso())) return undefined;
  return row.value;
}

export async function upsertKvValue(db: DB, key: string, value: string, expiresAt: string | null): Promise<void> {
  await db.insertInto('federation_kv').values({ key, value, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, expires_at: expiresAt }))
    .execute();
}

export async function deleteKvValue(db: DB, key: string): Promise<void> {
  await db.deleteFrom('federation_kv').where('key', '=', key).execute();
}

/**
 * Sets `key` to `value` (undefined: removes it) only while it holds `expected` (undefined: while
 * absent or expired); whether it did. Each case one conditional statement, so that of two
 * instances swapping at once on PostgreSQL only one succeeds.
 */
export async function swapKvValue(db: DB, key: string, expected: string | undefined, value: string | undefined, expiresAt: string | null): Promise<boolean> {
  const now = nowIso();
  if (expected === undefined) {
    if (value === undefined) return await findKvValue(db, key) === undefined;
    // An expired row is absence: it goes first, then the insert takes the key only if nobody has.
    await db.deleteFrom('federation_kv').where('key', '=', key).where('expires_at', '<=', now).execute();
    const inserted = await db.insertInto('federation_kv').values({ key, value, expires_at: expiresAt })
      .onConflict((oc) => oc.column('key').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const live = (eb: ExpressionBuilder<Database, 'federation_kv'>) => eb.and([
    eb('key', '=', key), eb('value', '=', expected), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
  ]);
  if (value === undefined) {
    const deleted = await db.deleteFrom('federation_kv').where(live).executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1;
  }
  const updated = await db.updateTable('federation_kv').set({ value, expires_at: expiresAt }).where(live).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Every live entry whose key is `exact` or starts with `prefix` (both JSON texts), in key order. */
export async function listKvValues(db: DB, exact: string | undefined, prefix: string): Promise<KvRow[]> {
  const now = nowIso();
  return await db.selectFrom('federation_kv').select(['key', 'value'])
    .where((eb) => eb.or([
      ...(exact === undefined ? [] : [eb('key', '=', exact)]),
      eb.and([eb('key', '>=', prefix), eb('key', '<', `${prefix}\uffff`)]),
    ]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('key')
    .execute();
}

/** Removes what has expired: a few rows at a time, so that no write waits on a long sweep. */
export async function deleteExpiredKvValues(db: DB, limit = 100): Promise<void> {
  const expired = db.selectFrom('federation_kv').select('key').where('expires_at', '<=', nowIso()).limit(limit);
  await db.deleteFrom('federation_kv').where('key', 'in', expired).execute();
}
