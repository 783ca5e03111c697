// Searches over text, written once for every repo that offers one: "contains" over text columns,
// and the scopes of a full-text search.
import { type Expression, type SqlBool, sql } from 'kysely';

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` contains `text`, ignoring the case of ASCII letters (a raw column name, or any text
 * expression). SQLite's LIKE ignores case and PostgreSQL's does not; lower() on both sides gives
 * one answer on both (for ASCII only on both, as text compares byte by byte).
 */
export function contains(column: Expression<string> | string, text: string): Expression<SqlBool> {
  const target = typeof column === 'string' ? sql.ref(column) : column;
  return sql<SqlBool>`lower(${target}) LIKE lower(${containsPattern(text)}) ESCAPE '\\'`;
}

/**
 * Full-text search (search-index/), in each database's own way (sqlite/sqlite.search.ts,
 * postgres/postgres.search.ts): the matches whose title matches, or the others.
 */
export type MatchScope = 'title' | 'rest';

/** How many posts match a query, and how many of them by their title. */
export interface MatchCounts {
  total: number;
  titled: number;
}
