// Search on PostgreSQL (the SQLite twin, ../0006_search_index.ts, says why post_search holds the
// server's folded words). Full-text search without an extension or a text search configuration:
// each tsvector is made from post_search's words as they are (array_to_tsvector takes lexemes
// without parsing them), so the database never re-splits or re-folds what the server folded, and
// unaccent — which needs a superuser and is missing from some managed PostgreSQL services — is
// not needed. A GIN index over each: the title's words (title matches rank first) and all of them.
import { type Kysely, sql } from 'kysely';
import { fillSearchIndex } from '../0006_search_index.ts';

const words = (column: string) => sql.raw(`array_to_tsvector(array_remove(string_to_array(${column}, ' '), ''))`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE post_search (
    post_id integer PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
    title text COLLATE "C" NOT NULL,
    body text COLLATE "C" NOT NULL,
    title_terms tsvector GENERATED ALWAYS AS (${words('title')}) STORED,
    terms tsvector GENERATED ALWAYS AS (${words(`title || ' ' || body`)}) STORED
  )`.execute(db);
  await fillSearchIndex(db);
  await sql`CREATE INDEX post_search_title_terms ON post_search USING gin (title_terms)`.execute(db);
  await sql`CREATE INDEX post_search_terms ON post_search USING gin (terms)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS post_search`.execute(db);
}
