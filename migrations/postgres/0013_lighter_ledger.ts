// 0013_lighter_ledger.ts (SQLite) for PostgreSQL: the identity column stays (a sequence costs a
// commit nothing like a page); the index on the actor goes, for the same reason as there.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX mojo_events_actor`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX mojo_events_actor ON mojo_events(actor_id) WHERE actor_id IS NOT NULL`.execute(db);
}
