// The backups table (migrations/0021_backups.ts), and what a backup reads of any database: the
// migrations applied and each table's row count, for the archive's manifest.
import type { Kysely } from 'kysely';
import type { DB } from '../schema.ts';

export interface NewBackup {
  archive: string;
  bytes: number;
  started_at: string;
  finished_at: string;
  in_s3: number;
}

export async function insertBackup(db: DB, backup: NewBackup): Promise<void> {
  await db.insertInto('backups').values(backup).execute();
}

/** When the newest backup finished (ISO text), or undefined before the first. */
export async function latestBackupFinish(db: DB): Promise<string | undefined> {
  const row = await db.selectFrom('backups').select('finished_at').orderBy('finished_at', 'desc').limit(1).executeTakeFirst();
  return row?.finished_at;
}

/** The names of the migrations applied to `db`, in order. */
export async function appliedMigrations(db: DB): Promise<string[]> {
  const rows = await (db as unknown as Kysely<any>).selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((row) => String(row.name));
}

/** Each named table's row count. */
export async function countTables(db: DB, tables: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await (db as unknown as Kysely<any>).selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
