// SQLite's settings for a bulk load and the statistics its query planner reads, said through Kysely
// so that a caller such as the seeder never holds the driver itself.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import { PAGE_CACHE_KB } from './sqlite.database.ts';

/** better-sqlite3's default page cache, which the seeder had before it went through Kysely. */
const BULK_LOAD_CACHE_KB = 16_000;

/**
 * Settings for filling tables at once, outside any transaction (SQLite ignores foreign_keys inside
 * one); `on = false` restores what openSqlite sets. Nothing needs to survive a power cut (the load
 * can simply run again), so commits skip the fsync. References are right by construction, so they
 * are not looked up row by row (test/cli/seed-cli.test.ts checks them all). A multi-row INSERT
 * keeps a statement journal to undo itself should a row fail: in memory, not a temp file, and a
 * bigger page cache keeps the indexes being filled hot. Without these the seeder's 1M ratings took
 * twice as long as with single-row inserts, writing three times the pages.
 */
export async function bulkLoadMode(db: DB, on: boolean): Promise<void> {
  await sql.raw(`PRAGMA synchronous = ${on ? 'OFF' : 'NORMAL'}`).execute(db);
  await sql.raw(`PRAGMA foreign_keys = ${on ? 'OFF' : 'ON'}`).execute(db);
  await sql.raw(`PRAGMA temp_store = ${on ? 'MEMORY' : 'DEFAULT'}`).execute(db);
  await sql.raw(`PRAGMA cache_size = -${on ? BULK_LOAD_CACHE_KB : PAGE_CACHE_KB}`).execute(db);
}

/** Refreshes the planner's statistics, worth it after filling the tables at once. */
export async function analyze(db: DB): Promise<void> {
  await sql`ANALYZE`.execute(db);
}
