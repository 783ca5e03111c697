// Copies a whole Beatnik SQLite database into an empty, migrated PostgreSQL one (admin
// migrate-to-postgres): every row of every table with its id as it is and its counters as stored,
// then each id sequence continued past the largest id the SQLite file ever gave out, so that no
// id is used twice (DESIGN.md, Edges). One read transaction on SQLite (a consistent snapshot that
// also holds other writers off) and one transaction on PostgreSQL: a copy that fails leaves the
// target as empty as it was.
import type { Kysely } from 'kysely';
import {
  bulkInserter, continueIdsAfter, inspectPostgresTables, withoutIndexesAndForeignKeys,
} from '../postgres/postgres.import.ts';
import type { Database, DB } from '../schema.ts';
import { sqliteIdCounters } from '../sqlite/sqlite.export.ts';
import { findCounterDrift } from './counters.ts';

/** Every table, parents first (references are checked once all rows are in, all the same). */
export const COPY_ORDER = [
  'users', 'posts', 'hashtags', 'post_hashtags', 'ratings', 'comments', 'follows', 'notifications',
  'post_visits', 'post_ranks', 'post_rank_order', 'rank_refresh', 'moderation_log', 'post_search', 'reports',
  // Ended sessions: the tokens stay valid on PostgreSQL under the same JWT_SECRET, so the ones
  // signed out must stay ended.
  'revoked_tokens',
  // The mojo ledger: each author's events, adding up to the mojo copied with them.
  'mojo_events',
  // What each reader muted (migration 0010): their lists stay as they chose.
  'user_mutes', 'hashtag_mutes',
  // Work still to do, mail waiting among it, and the reset links out (migration 0016): nothing
  // queued is lost in the move, and a link mailed before it still works after.
  'jobs', 'account_tokens',
  // What each user's next notification mail is to tell (migration 0017).
  'mail_items',
  // The site's settings and its four pages (migration 0018).
  'site_settings', 'site_pages',
  // Two-factor sign-in (migration 0020): its secrets and unused recovery codes keep working.
  'two_factor', 'two_factor_recovery_codes',
  // The invitations out (migration 0019): a code handed out before the move still works after.
  'invites',
  // The archives made so far (migration 0021): when the last backup ran stays known.
  'backups',
  // The fediverse (migration 0022): the actors' keys (their followers elsewhere verify them), the
  // remote actors met and what they did here (follows, replies are comments above, likes and
  // boosts, readers' mutes of them), the admins' blocks, recent deliveries and Fedify's store.
  'federation_keys', 'remote_actors', 'remote_followers', 'post_reactions', 'user_remote_mutes',
  'federation_blocks', 'federation_deliveries', 'federation_kv',
] as const satisfies ReadonlyArray<keyof Database>;

export type TableName = typeof COPY_ORDER[number];

export type Row = Record<string, any>;

/**
 * Beatnik's tables that are not copied: Kysely's record of the migrations applied (present in a
 * migrated, still empty target), and the throttles' short-lived counts, which exist only on
 * PostgreSQL (migration 0005) and may hold rows once an instance has served from the target.
 */
export const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock', 'rate_limits'];

/** The tables whose `id` is handed out by the database (an identity column on PostgreSQL). */
export const ID_TABLES: readonly TableName[] = ['users', 'posts', 'comments', 'notifications', 'moderation_log', 'reports', 'mojo_events', 'jobs', 'mail_items', 'backups',
  'remote_actors', 'federation_deliveries'];

/** Rows per INSERT: a few thousand; more gained nothing measurable on a 100k-article site. */
const ROWS_PER_INSERT = 5_000;

export interface CopyProgress {
  rows(table: TableName, done: number, total: number): void;
  /** A step without a count (building the indexes). */
  step(text: string): void;
}

export interface CopyResult {
  /** Rows copied, by table. */
  rows: Record<TableName, number>;
  /** The id each table with ids hands out next on PostgreSQL. */
  nextIds: Partial<Record<TableName, number>>;
}

export async function copyDatabase(source: DB, target: DB, progress: CopyProgress): Promise<CopyResult> {
  return source.transaction().execute(async (from) => loadTables(target, {
    totals: await countRows(from),
    everGiven: await largestIdsEverGiven(from),
    rows: (table) => (from as unknown as Kysely<any>).selectFrom(table).selectAll().stream(),
  }, progress));
}

/** Where a copy's rows come from: a database (copyDatabase) or a backup archive's tables. */
export interface TableSource {
  /** Rows each table holds. */
  totals: Record<TableName, number>;
  /** The largest id each table ever gave out, deleted rows included. */
  everGiven: Map<string, number>;
  rows(table: TableName): AsyncIterable<Row>;
  /** The tables to fill, in COPY_ORDER (an older archive's schema has fewer); all of them when absent. */
  tables?: readonly TableName[];
}

/**
 * Every table of `source` into the empty, migrated PostgreSQL `target`, in one transaction, ids
 * continued past the largest ever given: what copyDatabase and a restore share.
 */
export async function loadTables(target: DB, source: TableSource, progress: CopyProgress): Promise<CopyResult> {
  const rebuilding = (indexes: number, foreignKeys: number) => {
    progress.step(`building ${indexes} indexes and checking ${foreignKeys} kinds of reference…`);
  };
  return target.transaction().execute((to) => withoutIndexesAndForeignKeys(to, async () => {
    const rows = {} as Record<TableName, number>;
    const largest = new Map<TableName, number>();
    const tables = source.tables ?? COPY_ORDER;
    for (const table of tables) {
      const copied = await copyTable(source, to, table, progress);
      rows[table] = copied.rows;
      largest.set(table, copied.largestId);
    }
    const nextIds: Partial<Record<TableName, number>> = {};
    for (const table of ID_TABLES.filter((t) => tables.includes(t))) {
      const last = Math.max(largest.get(table) ?? 0, source.everGiven.get(table) ?? 0);
      await continueIdsAfter(to, table, last);
      nextIds[table] = last + 1;
    }
    return { rows, nextIds };
  }, rebuilding));
}

/**
 * Why `target` cannot receive a copy, or undefined when it can: a database with no tables at all,
 * or one Beatnik migrated and nobody used since.
 */
export async function targetProblem(target: DB): Promise<string | undefined> {
  const tables = await inspectPostgresTables(target);
  const beatnik = new Set<string>([...COPY_ORDER, ...MIGRATION_TABLES]);
  const foreign = tables.filter((t) => !beatnik.has(t.name)).map((t) => t.name);
  if (foreign.length > 0) return `it has tables that are not Beatnik's (${listed(foreign)})`;
  if (tables.length > 0 && !tables.some((t) => t.name === 'kysely_migration')) {
    return `its tables (${listed(tables.map((t) => t.name))}) were not made by Beatnik's migrations`;
  }
  const filled = tables.filter((t) => t.hasRows && !MIGRATION_TABLES.includes(t.name)).map((t) => t.name);
  if (filled.length > 0) return `it is not empty (${listed(filled)} ${filled.length === 1 ? 'has' : 'have'} rows)`;
  return undefined;
}

function listed(names: readonly string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

export interface CopyCheck {
  /** Each table's rows on both sides, counted again after the copy. */
  counts: Array<{ table: TableName; source: number; target: number }>;
  /** Counters on the target that disagree with its base tables (counters.ts). */
  drift: string[];
}

/** Counts every table on both sides and recounts every counter on the target. */
export async function verifyCopy(source: DB, target: DB): Promise<CopyCheck> {
  const [before, after] = [await countRows(source), await countRows(target)];
  return {
    counts: COPY_ORDER.map((table) => ({ table, source: before[table], target: after[table] })),
    drift: await findCounterDrift(target),
  };
}

/** Every table's row count. */
export async function countRows(db: DB): Promise<Record<TableName, number>> {
  const counts = {} as Record<TableName, number>;
  for (const table of COPY_ORDER) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/**
 * The largest id each table ever gave out, deleted rows included; for posts also the largest
 * post id the moderation log names (an admin-deleted article's id is never given again).
 */
async function largestIdsEverGiven(db: DB): Promise<Map<string, number>> {
  const given = await sqliteIdCounters(db);
  const logged = await db.selectFrom('moderation_log').select((eb) => eb.fn.max('post_id').as('id')).executeTakeFirst();
  given.set('posts', Math.max(given.get('posts') ?? 0, Number(logged?.id ?? 0)));
  return given;
}


/**
 * Streams `table` from the source and writes it to PostgreSQL a few thousand rows at a time; the
 * source reads the next rows while PostgreSQL stores the previous ones.
 */
async function copyTable(
  from: TableSource, to: DB, table: TableName, progress: CopyProgress,
): Promise<{ rows: number; largestId: number }> {
  const total = from.totals[table];
  const insert = await bulkInserter(to, table);
  let done = 0;
  let largestId = 0;
  let chunk: Row[] = [];
  let writing: Promise<void> = Promise.resolve();
  const write = async (rows: Row[]) => {
    await writing;
    writing = insert(rows).then(() => {
      done += rows.length;
      progress.rows(table, done, total);
    });
    // Awaited before the next write or at the end; this only keeps a failure from counting as
    // unhandled while the next rows are read.
    writing.catch(() => {});
  };
  progress.rows(table, 0, total);
  for await (const row of from.rows(table)) {
    if (typeof row.id === 'number' && row.id > largestId) largestId = row.id;
    chunk.push(row);
    if (chunk.length >= ROWS_PER_INSERT) {
      await write(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await write(chunk);
  await writing;
  return { rows: done, largestId };
}
