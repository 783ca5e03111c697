// A query's plan in terms both databases share, for tests that assert on indexes used, tables
// never read whole and rows never sorted. SQLite's EXPLAIN QUERY PLAN and PostgreSQL's EXPLAIN
// (FORMAT JSON) are read into the same steps.
//
// PostgreSQL plans by cost, and on a test's few rows reading a table whole is cheapest. Its plan is
// asked with sequential scans, bitmap scans, hash and merge joins (which read a side whole) and,
// unless a sort is allowed, sorts priced out of reach (SET LOCAL enable_… = off): what then
// remains a scan or a sort has no index that could serve it, the question the tests ask.
// SQLite's plan does not depend on the table's size in the same way.
import { sql } from 'kysely';
import { dialectOf } from '../server/db.ts';
import type { DB } from '../server/schema.ts';
import { sqlRows } from './helpers.ts';

/** scan: every row, no index; walk: every row, through an index in its order; search: by key. */
export type Access = 'scan' | 'walk' | 'search';

export interface PlanStep {
  /** The table's name as the query calls it (its alias if it has one). */
  table: string;
  access: Access;
  /** The index used; 'PRIMARY KEY' for the table's key. */
  index?: string;
}

export interface QueryPlan {
  steps: PlanStep[];
  /** Rows are sorted after they are read (SQLite's temporary B-tree, PostgreSQL's Sort). */
  sorts: boolean;
  /** The plan as the database printed it, for failure messages. */
  text: string;
}

export interface ExplainOptions {
  /** The query may sort the few rows it narrowed to (PostgreSQL then weighs sorting as usual). */
  allowSort?: boolean;
  /**
   * PostgreSQL may read an index through a bitmap, the only way it reads a GIN index (full-text
   * search): the step is then a search by that index.
   */
  allowBitmap?: boolean;
}

export async function explain(
  db: DB, query: { sql: string; parameters: readonly unknown[] }, options: ExplainOptions = {},
): Promise<QueryPlan> {
  return dialectOf(db) === 'postgres' ? explainPostgres(db, query, options) : explainSqlite(db, query);
}

async function explainSqlite(db: DB, query: { sql: string; parameters: readonly unknown[] }): Promise<QueryPlan> {
  const rows = await sqlRows<{ detail: string }>(db, `EXPLAIN QUERY PLAN ${query.sql}`, ...query.parameters);
  const lines = rows.map((row) => row.detail);
  const steps: PlanStep[] = [];
  for (const line of lines) {
    // A virtual table: FTS5's plan names its MATCH with an M in the index string; without one, FTS5
    // reads every row.
    const virtual = /^SCAN (\w+) VIRTUAL TABLE INDEX \d+:(\S*)/.exec(line);
    if (virtual) {
      steps.push({ table: virtual[1]!, access: virtual[2]!.includes('M') ? 'search' : 'scan', index: 'VIRTUAL TABLE' });
      continue;
    }
    const match = /^(SCAN|SEARCH) (\w+)(?: USING (?:COVERING )?(?:INDEX (\w+)|(INTEGER PRIMARY KEY)))?/.exec(line);
    if (!match) continue;
    const index = match[3] ?? (match[4] ? 'PRIMARY KEY' : undefined);
    const access: Access = match[1] === 'SEARCH' ? 'search' : index ? 'walk' : 'scan';
    steps.push({ table: match[2]!, access, ...(index ? { index } : {}) });
  }
  return { steps, sorts: lines.some((line) => line.includes('TEMP B-TREE')), text: lines.join('\n') };
}

interface PostgresNode {
  'Node Type': string;
  'Alias'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Plans'?: PostgresNode[];
}

async function explainPostgres(
  db: DB, query: { sql: string; parameters: readonly unknown[] }, options: ExplainOptions,
): Promise<QueryPlan> {
  const settings = ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin'];
  if (!options.allowBitmap) settings.push('enable_bitmapscan');
  if (!options.allowSort) settings.push('enable_sort');
  const root = await db.transaction().execute(async (trx) => {
    for (const setting of settings) {
      await sql`SELECT set_config(${setting}, 'off', true)`.execute(trx);
    }
    const [row] = await sqlRows<{ 'QUERY PLAN': Array<{ Plan: PostgresNode }> }>(
      trx, `EXPLAIN (FORMAT JSON) ${query.sql}`, ...query.parameters);
    return row!['QUERY PLAN'][0]!.Plan;
  });
  const steps: PlanStep[] = [];
  let sorts = false;
  const visit = (node: PostgresNode) => {
    const type = node['Node Type'];
    // An incremental sort only orders rows that tie on an index's order: it streams, as a LIMIT needs.
    if (type === 'Sort') sorts = true;
    if (type === 'Seq Scan') steps.push({ table: node.Alias!, access: 'scan' });
    if (type === 'Bitmap Heap Scan') {
      const index = (node.Plans ?? []).find((child) => child['Node Type'] === 'Bitmap Index Scan')?.['Index Name'];
      steps.push({ table: node.Alias!, access: 'search', ...(index ? { index } : {}) });
    }
    if (type === 'Index Scan' || type === 'Index Only Scan') {
      const index = node['Index Name']!.endsWith('_pkey') ? 'PRIMARY KEY' : node['Index Name']!;
      steps.push({ table: node.Alias!, access: node['Index Cond'] ? 'search' : 'walk', index });
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root);
  return { steps, sorts, text: JSON.stringify(root, null, 1) };
}
