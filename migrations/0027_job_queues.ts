// Two queues in the jobs table (server/jobs/): `main` for mail, digests and backups, `federation`
// for the fediverse's deliveries and pictures, each with a runner of its own on the leader, so
// that thousands of deliveries waiting, or one slow server, never hold a password reset back.
// - jobs.queue: the job's queue, given when it is queued; the federation jobs already waiting move
//   to theirs.
// - jobs_queue_due: each runner's due rows, oldest first, without walking the other queue's.
// The same SQL on both databases but for the text type; SQLite runs it in a transaction of its
// own (Kysely runs SQLite migrations outside one), PostgreSQL inside the migration's.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

async function run(db: Kysely<any>, statements: (sqlite: boolean) => string[]): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const apply = async (trx: Kysely<any>) => {
    for (const statement of statements(sqlite)) await sql.raw(statement).execute(trx);
  };
  if (sqlite) await db.transaction().execute(apply);
  else await apply(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, (sqlite) => [
    `ALTER TABLE jobs ADD COLUMN queue ${sqlite ? 'TEXT' : 'text COLLATE "C"'} NOT NULL DEFAULT 'main'`,
    `UPDATE jobs SET queue = 'federation' WHERE kind IN ('federation.send', 'federation.fedify', 'federation.avatar')`,
    `CREATE INDEX jobs_queue_due ON jobs(queue, state, run_at)`,
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DROP INDEX jobs_queue_due`,
    `ALTER TABLE jobs DROP COLUMN queue`,
  ]);
}
