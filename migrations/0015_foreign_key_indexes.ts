// Every foreign key with an ON DELETE action gets an index leading with its column, so that the
// action finds its rows by key instead of reading the whole table while the single writer waits:
// - notifications.post_id (SET NULL): each deleted article scanned every notification (a quarter
//   of a second on the bench's database). Partial: most notifications name no article.
// - moderation_log.admin_id and target_user_id (SET NULL): each removed account scanned the log.
// mojo_events.actor_id stays without one, as 0013 decided: an index written by every rating and
// comment, for the rare removal of an account (test/api/foreign-key-indexes.test.ts says so).
// The same SQL on both databases.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX notifications_post ON notifications(post_id) WHERE post_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX moderation_log_admin ON moderation_log(admin_id) WHERE admin_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX moderation_log_target_user ON moderation_log(target_user_id) WHERE target_user_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX moderation_log_target_user`.execute(db);
  await sql`DROP INDEX moderation_log_admin`.execute(db);
  await sql`DROP INDEX notifications_post`.execute(db);
}
