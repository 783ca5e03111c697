// "Contains" searches over text columns, written once for every repo that offers one.
import { type Expression, type SqlBool, sql } from 'kysely';

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column` contains `text` (a raw column name, or any text expression). */
export function contains(column: Expression<string> | string, text: string): Expression<SqlBool> {
  const target = typeof column === 'string' ? sql.ref(column) : column;
  return sql<SqlBool>`${target} LIKE ${containsPattern(text)} ESCAPE '\\'`;
}
