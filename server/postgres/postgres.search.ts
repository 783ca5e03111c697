// Search on PostgreSQL: tsquery against post_search's tsvectors, through their GIN indexes
// (migrations/postgres/0006_search_index.ts).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../schema.ts';
import type { Page } from '../http.ts';
import { postNotMutedBy } from '../muted-posts.ts';
import type { MatchCounts, MatchScope } from '../text-search.ts';

/** A muter's matches leave out what they muted (server/muted-posts.ts); nobody's else. */
const unmuted = (mutedBy: number | undefined) =>
  (mutedBy === undefined ? sql`` : sql` AND ${postNotMutedBy(mutedBy, 'post_search.post_id')}`);

/**
 * The query as tsquery text: each word a quoted lexeme, taken as it is (a word is letters and
 * digits only, never a quote or a backslash: shared/search-text.ts), so nothing a reader types can
 * be an operator; all of them (&), the last one a prefix (:*).
 */
function tsquery(terms: readonly string[]): RawBuilder<unknown> {
  return sql`${terms.map((term, i) => `'${term}'${i === terms.length - 1 ? ':*' : ''}`).join(' & ')}::tsquery`;
}

function matching(terms: readonly string[], scope: MatchScope): RawBuilder<SqlBool> {
  const query = tsquery(terms);
  return scope === 'title' ? sql<SqlBool>`title @@ ${query}` : sql<SqlBool>`words @@ ${query} AND NOT (title @@ ${query})`;
}

/** Both counts in one pass over the matches: each is visited once, its title checked on the way. */
export async function countPostgresMatches(db: DB, terms: readonly string[], mutedBy?: number): Promise<MatchCounts> {
  const query = tsquery(terms);
  const { rows } = await sql<{ total: string; titled: string }>`
    SELECT count(*) AS total, count(*) FILTER (WHERE title @@ ${query}) AS titled
    FROM post_search WHERE words @@ ${query}${unmuted(mutedBy)}`.execute(db);
  return { total: Number(rows[0]?.total ?? 0), titled: Number(rows[0]?.titled ?? 0) };
}

/**
 * Fewer matches than this are found by the index and sorted; from this many on, walking the ids
 * down from the newest meets a page's rows soon. PostgreSQL cannot always tell the two apart: for
 * a prefix in a column with fewer than 100 common words (titles), it guesses 2 % of the rows,
 * whatever the word, and walked every row for a word no title holds.
 */
const WALK_FROM = 2_000;

/** A page of the matches in `scope`, newest first; `matches` is how many there are (counted before). */
export async function listPostgresMatches(
  db: DB, terms: readonly string[], scope: MatchScope, page: Page, matches: number, mutedBy?: number,
): Promise<number[]> {
  const condition = sql<SqlBool>`${matching(terms, scope)}${unmuted(mutedBy)}`;
  const { rows } = matches >= WALK_FROM
    ? await sql<{ post_id: number }>`SELECT post_id FROM post_search WHERE ${condition}
        ORDER BY post_id DESC LIMIT ${page.limit} OFFSET ${page.skip}`.execute(db)
    : await sql<{ post_id: number }>`WITH matched AS MATERIALIZED (SELECT post_id FROM post_search WHERE ${condition})
        SELECT post_id FROM matched ORDER BY post_id DESC LIMIT ${page.limit} OFFSET ${page.skip}`.execute(db);
  return rows.map((row) => row.post_id);
}

/** The stored entries of posts in an id range (inclusive), each column's words space-separated. */
export async function listPostgresEntries(db: DB, fromId: number, toId: number): Promise<Array<{ post_id: number; title: string; words: string }>> {
  const { rows } = await sql<{ post_id: number; title: string; words: string }>`SELECT post_id,
      array_to_string(tsvector_to_array(title), ' ') AS title, array_to_string(tsvector_to_array(words), ' ') AS words
    FROM post_search WHERE post_id BETWEEN ${fromId} AND ${toId}`.execute(db);
  return rows;
}
