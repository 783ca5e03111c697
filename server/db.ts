// The database handle every repo takes, which database it is, and bringing its schema up to date.
import { Kysely, Migrator, PostgresAdapter } from 'kysely';
import path from 'node:path';
import { migrationProvider } from '../migrations/index.ts';
import type { Config } from './config.ts';
import type { DB } from './schema.ts';
import { openSqlite } from './sqlite/sqlite.database.ts';

/** The embedded default, or PostgreSQL when DATABASE_URL is set. */
export type DialectName = 'sqlite' | 'postgres';

export const DATABASE_FILE = 'beatnik.db';

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

/** Opens an SQLite file (the CLI's file commands, the seeder and tests use it directly). */
export function openDatabase(file: string): DB {
  return openSqlite(file);
}

/** The database the configuration names; PostgreSQL is reached once so a bad URL fails here. */
export async function openConfiguredDatabase(config: Config): Promise<DB> {
  if (!config.databaseUrl) return openSqlite(databasePath(config.dataDir));
  const { checkPostgres, openPostgres } = await postgresDatabase();
  const db = openPostgres(config.databaseUrl);
  try {
    await checkPostgres(db, config.databaseUrl);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Runs every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs the migrations up to and including `name` (a restore loads rows into the schema they left). */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Every migration this version knows, in order. */
export async function knownMigrations(dialect: DialectName): Promise<string[]> {
  return Object.keys(await migrationProvider(dialect).getMigrations()).sort();
}

/**
 * migrateToLatest on the database the configuration names (start-up, the admin CLI): on
 * PostgreSQL, a user without the privileges the migrations need is a setting to change, one line.
 */
export async function migrateConfiguredDatabase(db: DB, config: Config): Promise<string[]> {
  try {
    return await migrateToLatest(db);
  } catch (err) {
    throw (config.databaseUrl ? (await postgresDatabase()).privilegeProblem(err, config.databaseUrl) : undefined) ?? err;
  }
}

/** PostgreSQL's module, with its driver, loaded only where one is configured: a server on SQLite
 * neither runs nor holds pg (a few MB of its idle memory). */
const postgresDatabase = () => import('./postgres/postgres.database.ts');

/** The current time as the ISO text every table stores. */
export function nowIso(): string {
  return new Date().toISOString();
}
