// The site's own settings (DESIGN.md, Running a community), edited in the admin 'Settings' tab:
// - site_settings: at most one row (id 1): the name, tagline, description, contact email and the
//   registration mode. None until an admin first saves; the defaults (the name 'Beatnik') stand
//   meanwhile, so a migrated database is still empty for migrate-to-postgres. `registration` is
//   null until an admin chooses a mode: until then REGISTRATION (config.ts) says which is in
//   force, so that setting chooses only the first mode.
// - site_pages: the four pages in Markdown (about, rules, privacy, terms), the source beside the
//   sanitized HTML it renders to when saved (as articles keep theirs). A page without a row is not
//   written: its address answers 404 and the footer does not link it.
// The same SQL on both databases; SQLite runs it in a transaction of its own (Kysely runs SQLite
// migrations outside one), PostgreSQL inside the migration's.
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
  await run(db, (sqlite) => {
    const text = sqlite ? 'TEXT' : 'text COLLATE "C"';
    return [
      `CREATE TABLE site_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name ${text} NOT NULL,
        tagline ${text} NOT NULL DEFAULT '',
        description ${text} NOT NULL DEFAULT '',
        contact_email ${text} NOT NULL DEFAULT '',
        registration ${text} CHECK (registration IN ('open', 'approval', 'invite', 'closed')),
        updated_at ${text}
      )`,
      `CREATE TABLE site_pages (
        slug ${text} PRIMARY KEY CHECK (slug IN ('about', 'rules', 'privacy', 'terms')),
        content ${text} NOT NULL,
        content_html ${text} NOT NULL,
        updated_at ${text} NOT NULL
      )`,
    ];
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [`DROP TABLE site_pages`, `DROP TABLE site_settings`]);
}
