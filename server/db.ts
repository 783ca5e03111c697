// Opens the SQLite file under Kysely and brings its schema up to date.
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type SqliteDatabase } from 'kysely';
import path from 'node:path';
import { migrationProvider } from '../migrations/index.ts';
import { preparedStatement } from './connection.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

export interface OpenDatabase {
  db: DB;
  sqlite: SQLite.Database;
}

export const DATABASE_FILE = 'beatnik.db';

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

export function openDatabase(file: string): OpenDatabase {
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer; NORMAL syncs at checkpoints, so a power cut can lose
  // the last transactions but never corrupts the file (docs/operations.md).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 2 MB of page cache (better-sqlite3 defaults to 16 MB): public lists are cached as responses,
  // and the operating system's file cache serves the rest about as fast (64 MB measured no better).
  sqlite.pragma('cache_size = -2000');
  // Checkpoints normally run in a worker (maintenance/checkpointer.ts); this is the fallback.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, sqlite };
}

/** Kysely prepares every query anew; the statement cache of connection.ts reuses them. */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => preparedStatement(sqlite, sql) as unknown as ReturnType<SqliteDatabase['prepare']>,
  };
}

/** Runs every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The current time as the ISO text every table stores. */
export function nowIso(): string {
  return new Date().toISOString();
}
