// Writing in Markdown (DESIGN.md, Writing). Articles and comments keep their source in `content`
// and gain `content_html`, rendered once when written (server/markdown/); articles gain the
// picture's `image_alt` and `reading_minutes`; notifications gain the 'mention' type.
//
// Every text written so far was plain text shown with its line breaks. Each is rewritten as the
// Markdown that shows the same (server/markdown/markdown.legacy.ts escapes what Markdown would read
// as markup) and rendered, here, as the renderer stands; should the renderer change what it makes
// of such text, a new migration renders them again. The PostgreSQL twin is in postgres/.
import { type Kysely, sql } from 'kysely';
import { htmlText } from '../shared/html-text.ts';
import { readingMinutes } from '../shared/reading.ts';
import { escapeLegacyText } from '../server/markdown/markdown.legacy.ts';
import { renderMarkdown } from '../server/markdown/markdown.render.ts';
import { rebuildNotifications } from './0009_reports_moderation_log.ts';

const OLD_TYPES = `CHECK (type IN ('post_deleted', 'ban_notice', 'general', 'other', 'comment_deleted', 'report_closed'))`;
const NEW_TYPES = `CHECK (type IN ('post_deleted', 'ban_notice', 'general', 'other', 'comment_deleted', 'report_closed', 'mention'))`;

export async function up(db: Kysely<any>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction: a failure must leave nothing half done.
  await db.transaction().execute(async (trx) => {
    for (const statement of [
      `ALTER TABLE posts ADD COLUMN content_html TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE posts ADD COLUMN image_alt TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE posts ADD COLUMN reading_minutes INTEGER NOT NULL DEFAULT 1`,
      `ALTER TABLE comments ADD COLUMN content_html TEXT NOT NULL DEFAULT ''`,
    ]) await sql.raw(statement).execute(trx);
    await renderStoredTexts(trx);
    await rebuildNotifications(trx, OLD_TYPES, NEW_TYPES);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`DELETE FROM notifications WHERE type = 'mention'`.execute(trx);
    await rebuildNotifications(trx, NEW_TYPES, OLD_TYPES);
    await restorePlainTexts(trx);
    for (const statement of [
      `ALTER TABLE comments DROP COLUMN content_html`,
      `ALTER TABLE posts DROP COLUMN reading_minutes`,
      `ALTER TABLE posts DROP COLUMN image_alt`,
      `ALTER TABLE posts DROP COLUMN content_html`,
    ]) await sql.raw(statement).execute(trx);
  });
}

/** Rows read and written at a time: memory stays flat at any number of texts. */
const BATCH = 1_000;

/** Texts written before Markdown name nobody: the escaping leaves no mention to look up. */
const LEGACY = { siteOrigin: 'http://localhost', findUsers: async () => [] };

/** Every article's and comment's text as Markdown, with its rendering (both databases). */
export async function renderStoredTexts(db: Kysely<any>): Promise<void> {
  await forEachText(db, 'content', async (table, id, content) => {
    const source = escapeLegacyText(content);
    const rendered = await renderMarkdown(source, LEGACY);
    await db.updateTable(table).set(table === 'posts'
      ? { content: source, content_html: rendered.html, reading_minutes: readingMinutes(rendered.text) }
      : { content: source, content_html: rendered.html }).where('id', '=', id).execute();
  });
}

/** Down: each text as the plain text it shows, what the site before Markdown shows as it is. */
export async function restorePlainTexts(db: Kysely<any>): Promise<void> {
  await forEachText(db, 'content_html', async (table, id, html) => {
    await db.updateTable(table).set({ content: htmlText(html) }).where('id', '=', id).execute();
  });
}

async function forEachText(
  db: Kysely<any>, column: 'content' | 'content_html',
  change: (table: 'posts' | 'comments', id: number, text: string) => Promise<void>,
): Promise<void> {
  for (const table of ['posts', 'comments'] as const) {
    for (let after = 0; ;) {
      const rows: Array<{ id: number; text: string }> = await db.selectFrom(table).select(['id', `${column} as text`])
        .where('id', '>', after).orderBy('id').limit(BATCH).execute();
      if (rows.length === 0) break;
      for (const row of rows) await change(table, row.id, row.text);
      after = rows.at(-1)!.id;
    }
  }
}
