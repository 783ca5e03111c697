// Search on PostgreSQL (the SQLite twin, ../0006_search_index.ts, says what post_search holds).
// Full-text search without an extension or a text search configuration: each column is a
// tsvector, written as the server's words separated by spaces, which tsvector's own input takes
// as lexemes as they are — no parser, no dictionary, so the database never re-splits or re-folds
// what the server folded, and unaccent (which needs a superuser and is missing from some managed
// services) is not needed. The same text goes in on both databases: migrate-to-postgres copies
// post_search's rows as they are. A GIN index on each: the title's words (title matches rank
// first) and all of them (server/postgres/postgres.search.ts).
//
// Only ids and words: no copy of the text beside them. A count of many matches visits the row of
// each, and narrow rows made that a quarter of the time (34k matches of 100k articles: 31 ms
// against 120 ms with the text stored beside the tsvectors, on a busy two-core machine).
import { type Kysely, sql } from 'kysely';
import { fillSearchIndex } from '../0006_search_index.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE post_search (
    post_id integer PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
    title tsvector NOT NULL,
    words tsvector NOT NULL
  )`.execute(db);
  await fillSearchIndex(db);
  await sql`CREATE INDEX post_search_title ON post_search USING gin (title)`.execute(db);
  await sql`CREATE INDEX post_search_words ON post_search USING gin (words)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS post_search`.execute(db);
}
