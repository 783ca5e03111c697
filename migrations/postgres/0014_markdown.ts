// 0014_markdown.ts (SQLite) for PostgreSQL: the same columns and texts; the notifications' type
// CHECK is replaced in place, as PostgreSQL can.
import { type Kysely, sql } from 'kysely';
import { renderStoredTexts, restorePlainTexts } from '../0014_markdown.ts';

const TEXT = 'text COLLATE "C"';
const OLD_TYPES = `'post_deleted', 'ban_notice', 'general', 'other', 'comment_deleted', 'report_closed'`;
const NEW_TYPES = `${OLD_TYPES}, 'mention'`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE posts ADD COLUMN content_html ${TEXT} NOT NULL DEFAULT '',
      ADD COLUMN image_alt ${TEXT} NOT NULL DEFAULT '',
      ADD COLUMN reading_minutes integer NOT NULL DEFAULT 1`,
    `ALTER TABLE comments ADD COLUMN content_html ${TEXT} NOT NULL DEFAULT ''`,
    `ALTER TABLE notifications DROP CONSTRAINT notifications_type_check,
      ADD CONSTRAINT notifications_type_check CHECK (type IN (${NEW_TYPES}))`,
  ]) await sql.raw(statement).execute(db);
  await renderStoredTexts(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await restorePlainTexts(db);
  for (const statement of [
    `DELETE FROM notifications WHERE type = 'mention'`,
    `ALTER TABLE notifications DROP CONSTRAINT notifications_type_check,
      ADD CONSTRAINT notifications_type_check CHECK (type IN (${OLD_TYPES}))`,
    'ALTER TABLE comments DROP COLUMN content_html',
    'ALTER TABLE posts DROP COLUMN reading_minutes, DROP COLUMN image_alt, DROP COLUMN content_html',
  ]) await sql.raw(statement).execute(db);
}
