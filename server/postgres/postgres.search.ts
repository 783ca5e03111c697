// Search on PostgreSQL: tsquery against post_search's tsvectors, through their GIN indexes
// (migrations/postgres/0006_search_index.ts).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db.ts';
import type { Page } from '../http.ts';
import type { MatchScope } from '../text-search.ts';

/**
 * The query as tsquery text: each word a quoted lexeme, taken as it is (a word is letters and
 * digits only, never a quote or a backslash: shared/search-text.ts), so nothing a reader types can
 * be an operator; all of them (&), the last one a prefix (:*).
 */
function tsquery(terms: readonly string[]): string {
  return terms.map((term, i) => `'${term}'${i === terms.length - 1 ? ':*' : ''}`).join(' & ');
}

function matching(terms: readonly string[], scope: MatchScope): RawBuilder<SqlBool> {
  const query = sql`${tsquery(terms)}::tsquery`;
  if (scope === 'all') return sql<SqlBool>`terms @@ ${query}`;
  if (scope === 'title') return sql<SqlBool>`title_terms @@ ${query}`;
  return sql<SqlBool>`terms @@ ${query} AND NOT (title_terms @@ ${query})`;
}

export async function countPostgresMatches(db: DB, terms: readonly string[], scope: MatchScope): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM post_search WHERE ${matching(terms, scope)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function listPostgresMatches(db: DB, terms: readonly string[], scope: MatchScope, page: Page): Promise<number[]> {
  const { rows } = await sql<{ post_id: number }>`SELECT post_id FROM post_search WHERE ${matching(terms, scope)}
    ORDER BY post_id DESC LIMIT ${page.limit} OFFSET ${page.skip}`.execute(db);
  return rows.map((row) => row.post_id);
}
