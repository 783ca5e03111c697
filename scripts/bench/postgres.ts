// The bench's PostgreSQL: a cluster of its own (scripts/postgres-cluster.ts, with fsync), filled
// with a copy of the SQLite bench database by the same code as `admin migrate-to-postgres`, so
// both databases answer the same load over the same rows and ids.
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { copyDatabase } from '../../server/maintenance/copy-database.ts';
import { migrateToLatest, openDatabase } from '../../server/db.ts';
import { openPostgres } from '../../server/postgres/postgres.database.ts';
import { vacuumAfterBulkLoad } from '../../server/postgres/postgres.import.ts';
import { startPostgresCluster, type PostgresCluster } from '../postgres-cluster.ts';

export interface BenchPostgres {
  url: string;
  /** How long the copy of the SQLite database took, in ms. */
  copyMs: number;
  /** The cluster's processes (postmaster, backends, writers): the server's work is theirs too. */
  processes(): number[];
  stop(): void;
}

export async function postgresCopyOf(sqliteFile: string): Promise<BenchPostgres> {
  const cluster = await startPostgresCluster({ fsync: true });
  try {
    const admin = openPostgres(`${cluster.baseUrl}/postgres`);
    await sql`CREATE DATABASE bench`.execute(admin);
    await admin.destroy();
    const url = `${cluster.baseUrl}/bench`;
    const [source, target] = [openDatabase(sqliteFile), openPostgres(url)];
    const started = performance.now();
    try {
      await migrateToLatest(target);
      await copyDatabase(source, target, { rows: () => {}, step: () => {} });
      await vacuumAfterBulkLoad(target);
      // The copy's WAL written out now, not by a checkpoint in the middle of the first rows.
      await sql`CHECKPOINT`.execute(target);
    } finally {
      await Promise.all([source.destroy(), target.destroy()]);
    }
    return { url, copyMs: Math.round(performance.now() - started), processes: () => processesOf(cluster), stop: () => cluster.stop() };
  } catch (err) {
    cluster.stop();
    throw err;
  }
}

/** The postmaster and its children, from /proc. */
function processesOf(cluster: PostgresCluster): number[] {
  const root = cluster.pid();
  const children = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === root;
    } catch {
      return false;
    }
  });
  return [root, ...children.map(Number)];
}
