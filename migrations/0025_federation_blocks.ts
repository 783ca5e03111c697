// The admin's Fediverse tab and the blocks it sets (DESIGN.md, The fediverse: Moderation;
// federation_blocks itself is 0022's):
// - moderation_log.target: the server or account a `block` or `unblock` names (`example.org`,
//   `@user@example.org`), which no user id can say; null for every other act.
// - remote_followers_created: the tab's remote followers, every local user's, newest first.
// - jobs_federation_retries: the tab's failures, the deliveries waiting to be tried again or given
//   up on, latest first. Partial: only federation jobs that failed at least once and are not
//   running are in it, so the jobs every other kind queues and the deliveries that go through the
//   first time never write it.
//   Its condition is literal SQL, which the query repeats (server/federation/federation-admin.repo.ts).
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
    `ALTER TABLE moderation_log ADD COLUMN target ${sqlite ? 'TEXT' : 'text COLLATE "C"'}`,
    `CREATE INDEX remote_followers_created ON remote_followers(created_at, user_id, actor_id)`,
    `CREATE INDEX jobs_federation_retries ON jobs(run_at, id)
      WHERE kind IN ('federation.send', 'federation.fedify') AND attempts > 0 AND state <> 'running'`,
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DROP INDEX jobs_federation_retries`,
    `DROP INDEX remote_followers_created`,
    `ALTER TABLE moderation_log DROP COLUMN target`,
  ]);
}
