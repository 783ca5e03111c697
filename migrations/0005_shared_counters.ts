// Nothing to do on SQLite: one process serves it and keeps its throttles' counts in memory. The
// migration exists so both databases carry the same list of migrations; the table is PostgreSQL's
// (postgres/0005_shared_counters.ts).
import type { Kysely } from 'kysely';

export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}
