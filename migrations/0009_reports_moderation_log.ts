// Reports and the public moderation log (DESIGN.md, Accounts, drafts, reports, mutes, moderation log).
//
// reports: one row per reader's report of an article or a comment. A target is named by its type
// and id with no reference, so that a report outlives what it names: its closing (dismissed, the
// content deleted, its author banned) stays on record. An admin's act closes a target's reports
// in its own transaction; content that goes any other way (its author deletes it, an article takes
// its comments with it, an account goes) closes them by the triggers below, as 'removed'.
// One open report per reader and target is the partial unique index.
//
// moderation_log gains the removed comment's id and a ban's end, and an index for the public
// log: every act but 'notify' (an admin's private message is nobody else's business).
//
// notifications gain two types: 'comment_deleted' (to the author of a comment an admin removed)
// and 'report_closed' (to each reader whose report was resolved). SQLite cannot change a CHECK in
// place: the table is rebuilt (https://www.sqlite.org/lang_altertable.html#otheralter) with its
// ids and its AUTOINCREMENT counter as they were (ids are never reused, 0002). Nothing references
// notifications, so dropping the old table cascades nowhere. PostgreSQL's twin is in postgres/.
import { type Kysely, sql } from 'kysely';

const OLD_TYPES = `CHECK (type IN ('post_deleted', 'ban_notice', 'general', 'other'))`;
const NEW_TYPES = `CHECK (type IN ('post_deleted', 'ban_notice', 'general', 'other', 'comment_deleted', 'report_closed'))`;

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const statements = [
  `CREATE TABLE reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    target_type TEXT NOT NULL CHECK (target_type IN ('post', 'comment')),
    target_id INTEGER NOT NULL,            -- no reference: the report outlives what it names
    target_author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    reason TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'off-topic', 'other')),
    note TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    resolution TEXT CHECK (resolution IN ('dismissed', 'deleted', 'banned', 'removed')),
    closed_at TEXT,                        -- one moment for every report one act closed
    closed_by INTEGER REFERENCES users(id) ON DELETE SET NULL
  )`,
  `CREATE UNIQUE INDEX reports_open_once ON reports(reporter_id, target_type, target_id) WHERE status = 'open'`,
  `CREATE INDEX reports_open_target ON reports(target_type, target_id) WHERE status = 'open'`,
  `CREATE INDEX reports_closed ON reports(closed_at, target_type, target_id) WHERE status = 'closed'`,
  `CREATE INDEX reports_reporter ON reports(reporter_id)`,
  `CREATE INDEX reports_author ON reports(target_author_id)`,
  `CREATE INDEX reports_closed_by ON reports(closed_by)`,
  `CREATE TRIGGER posts_close_reports AFTER DELETE ON posts BEGIN
    UPDATE reports SET status = 'closed', resolution = 'removed', closed_at = ${NOW}
    WHERE target_type = 'post' AND target_id = old.id AND status = 'open';
  END`,
  `CREATE TRIGGER comments_close_reports AFTER DELETE ON comments BEGIN
    UPDATE reports SET status = 'closed', resolution = 'removed', closed_at = ${NOW}
    WHERE target_type = 'comment' AND target_id = old.id AND status = 'open';
  END`,

  `ALTER TABLE moderation_log ADD COLUMN comment_id INTEGER`,
  `ALTER TABLE moderation_log ADD COLUMN ban_until TEXT`,
  // Its `action <> 'notify'` must be the query's, word for word (moderation/moderation.repo.ts).
  `CREATE INDEX moderation_log_public ON moderation_log(created_at, id) WHERE action <> 'notify'`,
];

export async function up(db: Kysely<any>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction: a failure must leave nothing half built.
  await db.transaction().execute(async (trx) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
    await rebuildNotifications(trx, OLD_TYPES, NEW_TYPES);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`DELETE FROM notifications WHERE type IN ('comment_deleted', 'report_closed')`.execute(trx);
    await rebuildNotifications(trx, NEW_TYPES, OLD_TYPES);
    await sql`DROP INDEX IF EXISTS moderation_log_public`.execute(trx);
    await sql`ALTER TABLE moderation_log DROP COLUMN ban_until`.execute(trx);
    await sql`ALTER TABLE moderation_log DROP COLUMN comment_id`.execute(trx);
    await sql`DROP TRIGGER IF EXISTS comments_close_reports`.execute(trx);
    await sql`DROP TRIGGER IF EXISTS posts_close_reports`.execute(trx);
    await sql`DROP TABLE IF EXISTS reports`.execute(trx);
  });
}

/** notifications with `from` (its type CHECK) written `to`: rows, ids, indexes and counter as they were. */
export async function rebuildNotifications(trx: Kysely<any>, from: string, to: string): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string }>`
    SELECT type, sql FROM sqlite_master WHERE tbl_name = 'notifications' AND sql IS NOT NULL`.execute(trx);
  const definition = rows.find((row) => row.type === 'table')?.sql;
  if (!definition || !definition.includes(from)) throw new Error(`unexpected definition of notifications: ${definition}`);
  const dependents = rows.filter((row) => row.type !== 'table').map((row) => row.sql);
  const { rows: counter } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'notifications'`.execute(trx);
  const everGiven = Number(counter[0]?.seq ?? 0);

  const head = /^CREATE TABLE ("?)notifications\1 \(/.exec(definition);
  if (!head) throw new Error(`unexpected definition of notifications: ${definition}`);
  await sql.raw(`CREATE TABLE beatnik_rebuilt_notifications (${definition.slice(head[0].length).replace(from, to)}`).execute(trx);
  await sql`INSERT INTO beatnik_rebuilt_notifications SELECT * FROM notifications`.execute(trx);
  await sql`DROP TABLE notifications`.execute(trx);
  await sql`ALTER TABLE beatnik_rebuilt_notifications RENAME TO notifications`.execute(trx);
  for (const statement of dependents) await sql.raw(statement).execute(trx);
  // The copy set the counter to the largest id left; a newer notification deleted earlier had one above it.
  const { rows: copied } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'notifications'`.execute(trx);
  const largest = Math.max(everGiven, Number(copied[0]?.seq ?? 0));
  await sql`DELETE FROM sqlite_sequence WHERE name = 'notifications'`.execute(trx);
  if (largest > 0) await sql`INSERT INTO sqlite_sequence (name, seq) VALUES ('notifications', ${largest})`.execute(trx);
}
