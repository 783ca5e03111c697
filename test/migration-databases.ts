// A migrated database of this run's kind for the migration tests, which step it down and up
// themselves: a SQLite file in a temporary directory, or, under `npm run test:pg`, a database
// copied from the suite's template. `drop` closes and removes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../server/db.ts';
import type { DB } from '../server/schema.ts';
import { openPostgres } from '../server/postgres/postgres.database.ts';
import { createTestDatabase, dropTestDatabase, testPostgresBase } from './postgres-databases.ts';

export interface MigratedDatabase {
  db: DB;
  drop(): Promise<void>;
}

export async function freshMigratedDatabase(): Promise<MigratedDatabase> {
  const base = testPostgresBase();
  if (base) {
    const url = await createTestDatabase(base);
    const db = openPostgres(url);
    return { db, drop: async () => { await db.destroy(); await dropTestDatabase(url); } };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-migration-'));
  const db = openDatabase(path.join(dir, 'beatnik.db'));
  await migrateToLatest(db);
  return { db, drop: async () => { await db.destroy(); rmSync(dir, { recursive: true, force: true }); } };
}
