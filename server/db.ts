// The database handle every repo takes, and bringing its schema up to date.
import { Kysely, Migrator } from 'kysely';
import path from 'node:path';
import { migrationProvider } from '../migrations/index.ts';
import type { Database } from './schema.ts';
import { openSqlite } from './sqlite/sqlite.database.ts';

/** Kysely over Beatnik's tables: the database itself or a transaction, the same type. */
export type DB = Kysely<Database>;

export const DATABASE_FILE = 'beatnik.db';

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

export function openDatabase(file: string): DB {
  return openSqlite(file);
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
