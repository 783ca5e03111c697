// Look-alike usernames (DESIGN.md, Edges): names that differ only by case or by `.`, `-` and `_`
// share a skeleton. This index finds a skeleton's holder without scanning every user; the query
// in server/users/users.repo.ts repeats the expression exactly, so the planner uses it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX users_username_skeleton
    ON users (replace(replace(replace(username_key, '.', ''), '-', ''), '_', ''))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_username_skeleton`.execute(db);
}
