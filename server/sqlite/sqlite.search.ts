// Search on SQLite: FTS5's MATCH over post_search_fts, the index of post_search's words
// (migrations/0006_search_index.ts). Rows come in descending rowid, the post's id: FTS5 reads
// its lists in that order, so a page stops once it has its rows.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import type { Page } from '../http.ts';
import { postNotMutedBy } from '../muted-posts.ts';
import type { MatchCounts, MatchScope } from '../text-search.ts';

/**
 * The FTS5 query: each word as a quoted string (a word is letters and digits only, never a quote:
 * shared/search-text.ts), so nothing a reader types can be an operator; the last one a prefix.
 * Words side by side must all match; `title:` keeps a word to the title.
 */
function matchText(terms: readonly string[], scope: MatchScope | 'all'): string {
  const word = (term: string, i: number) => `"${term}"${i === terms.length - 1 ? '*' : ''}`;
  // Any column: the title's words are among the others too.
  const all = terms.map(word).join(' ');
  const title = terms.map((term, i) => `title:${word(term, i)}`).join(' ');
  return scope === 'all' ? all : scope === 'title' ? title : `(${all}) NOT (${title})`;
}

/** A muter's matches leave out what they muted (server/muted-posts.ts); nobody's else. */
const unmuted = (mutedBy: number | undefined) =>
  (mutedBy === undefined ? sql`` : sql` AND ${postNotMutedBy(mutedBy, 'post_search_fts.rowid')}`);

async function countMatching(db: DB, match: string, mutedBy: number | undefined): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM post_search_fts WHERE post_search_fts MATCH ${match}${unmuted(mutedBy)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function countSqliteMatches(db: DB, terms: readonly string[], mutedBy?: number): Promise<MatchCounts> {
  return {
    total: await countMatching(db, matchText(terms, 'all'), mutedBy),
    titled: await countMatching(db, matchText(terms, 'title'), mutedBy),
  };
}

export async function listSqliteMatches(db: DB, terms: readonly string[], scope: MatchScope, page: Page, mutedBy?: number): Promise<number[]> {
  const { rows } = await sql<{ post_id: number }>`SELECT rowid AS post_id FROM post_search_fts
    WHERE post_search_fts MATCH ${matchText(terms, scope)}${unmuted(mutedBy)}
    ORDER BY rowid DESC LIMIT ${page.limit} OFFSET ${page.skip}`.execute(db);
  return rows.map((row) => row.post_id);
}

/** What FTS5's own check finds wrong between the index and post_search, or undefined. */
export async function sqliteSearchIndexProblem(db: DB): Promise<string | undefined> {
  try {
    await sql`INSERT INTO post_search_fts (post_search_fts, rank) VALUES ('integrity-check', 1)`.execute(db);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
