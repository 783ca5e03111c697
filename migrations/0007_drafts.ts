// Drafts (DESIGN.md, Accounts, drafts…): posts.status, 'published' or 'draft'. Every article so
// far was published. A draft is in no public list, so every list that reads published articles
// now says so, and its indexes lead with the status (beside `archived`): the same lists stay
// index-backed, counts stay covering, and an author's drafts are a range of one index
// (server/posts/posts.repo.ts). The indexes they replace had only `archived` in front, or nothing.
// The same SQL on both databases; SQLite runs it in a transaction of its own (Kysely runs SQLite
// migrations outside one), PostgreSQL inside the migration's.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

const UP = [
  `ALTER TABLE posts ADD COLUMN status TEXT NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'draft'))`,
  `DROP INDEX posts_active_created`,
  `DROP INDEX posts_author_created`,
  `DROP INDEX posts_active_visits`,
  `DROP INDEX posts_created`,
  // Every published article, archived or not, newest first (the admin's list).
  `CREATE INDEX posts_status_created ON posts(status, created_at, id)`,
  // Newest, oldest and the sitemap's order among published active (or archived) articles.
  `CREATE INDEX posts_listed_created ON posts(status, archived, created_at, id)`,
  // An author's articles, or their drafts, newest first; lastmod of each author in the sitemap.
  `CREATE INDEX posts_author_listed ON posts(author_id, status, archived, created_at, id)`,
  // The Pulse by visits.
  `CREATE INDEX posts_listed_visits ON posts(status, archived, visits)`,
];

const DOWN = [
  `DROP INDEX posts_status_created`,
  `DROP INDEX posts_listed_created`,
  `DROP INDEX posts_author_listed`,
  `DROP INDEX posts_listed_visits`,
  // Drafts were never published: without a status they would become articles.
  `DELETE FROM posts WHERE status = 'draft'`,
  `ALTER TABLE posts DROP COLUMN status`,
  `CREATE INDEX posts_active_created ON posts(archived, created_at, id)`,
  `CREATE INDEX posts_author_created ON posts(author_id, archived, created_at, id)`,
  `CREATE INDEX posts_active_visits ON posts(archived, visits)`,
  `CREATE INDEX posts_created ON posts(created_at, id)`,
];

async function run(db: Kysely<any>, statements: string[]): Promise<void> {
  const apply = async (trx: Kysely<any>) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
  };
  if (db.getExecutor().adapter instanceof SqliteAdapter) await db.transaction().execute(apply);
  else await apply(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, UP);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, DOWN);
}
