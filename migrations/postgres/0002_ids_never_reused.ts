// Nothing to do on PostgreSQL: identity columns (0001_init) never reuse an id. The migration
// exists so both databases carry the same list of migrations.
import type { Kysely } from 'kysely';

export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}
