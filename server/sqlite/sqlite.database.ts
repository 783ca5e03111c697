// The SQLite dialect: the one module that opens better-sqlite3. It sets the pragmas Beatnik runs
// on, gives Kysely a driver that reuses prepared statements, and registers the SQL functions the
// queries call. Everything else reaches the data through Kysely.
import SQLite from 'better-sqlite3';
import {
  CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { averageRating, computeMojo } from '../mojo/mojo.formula.ts';
import { rankScore } from '../ranks/ranks.score.ts';
import type { Database, DB } from '../schema.ts';
import { keepUntilExit } from './sqlite.kept-objects.ts';

/** The page cache a connection keeps, in KB (why so small: openSqlite). */
export const PAGE_CACHE_KB = 2000;

/**
 * Per connection, how many of its statements are waiting for the write lock right now, and who is
 * told each time that changes: a process writing in batches (the ranking refresh,
 * sqlite.ranks-refresh.ts) can then step aside before its next batch rather than make a request
 * wait a second one. A statement waiting for the lock holds the event loop, since better-sqlite3
 * is synchronous, so the listener must pass the news on at once (a message to a child process is
 * written to its pipe before the statement blocks).
 */
interface LockWaits {
  count: number;
  listener?: (waiting: number) => void;
}

const lockWaits = new WeakMap<DB, LockWaits>();

/** Calls `listener` with the count each time it changes, until the returned function is called. */
export function onLockWaits(db: DB, listener: (waiting: number) => void): () => void {
  const waits = lockWaits.get(db);
  if (!waits) return () => {};
  waits.listener = listener;
  return () => {
    if (waits.listener === listener) waits.listener = undefined;
  };
}

export function openSqlite(file: string): DB {
  const sqlite = keepUntilExit(new SQLite(file));
  const waits: LockWaits = { count: 0 };
  // exec, not pragma(): that one makes a statement object to throw away (sqlite.kept-objects.ts).
  // WAL lets readers run beside the writer; NORMAL syncs at checkpoints, so a power cut can lose
  // the last transactions but never corrupts the file (docs/operations.md).
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  // 2 MB of page cache (better-sqlite3 defaults to 16 MB): public lists are cached as responses,
  // and the operating system's file cache serves the rest about as fast (64 MB measured no better).
  sqlite.exec(`PRAGMA cache_size = -${PAGE_CACHE_KB}`);
  // Checkpoints normally run in a process of their own (sqlite.checkpointer.ts); this is the fallback.
  sqlite.exec('PRAGMA wal_autocheckpoint = 10000');
  registerFunctions(sqlite);
  const db = new Kysely<Database>({
    dialect: new WriteTransactionsDialect({ database: withStatementCache(sqlite, waits) }, () => sqlite.inTransaction),
  });
  lockWaits.set(db, waits);
  return db;
}

/**
 * Every transaction here writes, so it takes the write lock as it begins. A deferred one that
 * reads first would fail at its first write (SQLITE_BUSY_SNAPSHOT, no waiting) whenever another
 * process, such as the admin CLI, wrote since that read; BEGIN IMMEDIATE waits busy_timeout.
 */
class WriteTransactionsDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #inTransaction: () => boolean;

  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#config = config;
    this.#inTransaction = inTransaction;
  }

  override createDriver(): Driver {
    return new WriteTransactionsDriver(this.#config, this.#inTransaction);
  }
}

class WriteTransactionsDriver extends SqliteDriver {
  readonly #inTransaction: () => boolean;

  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#inTransaction = inTransaction;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }

  /**
   * SQLite rolls a transaction back by itself on some errors (a full disk, an I/O error, out of
   * memory): a ROLLBACK then fails with 'cannot rollback - no transaction is active', and that
   * error, not the one that mattered, is what the caller saw (issue 27).
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#inTransaction()) await super.rollbackTransaction(connection);
  }
}

/**
 * The score rules as SQL functions, so a statement can apply them to the row it writes:
 * rank_score(visits, ratings_count, ratings_sum, comments_count, created_at, now) for
 * ranks.repo.ts; mojo_score(ratings_count, ratings_sum, comments, visits, followers) and
 * mean_rating(sum, count) for users/author-stats.repo.ts. The very same TypeScript rules.
 */
function registerFunctions(sqlite: SQLite.Database): void {
  sqlite.function('mojo_score', { deterministic: true },
    (ratingsCount, ratingsSum, comments, visits, followers) => computeMojo({
      ratingsCount: Number(ratingsCount), ratingsSum: Number(ratingsSum), comments: Number(comments),
      visits: Number(visits), followers: Number(followers),
    }));
  sqlite.function('mean_rating', { deterministic: true },
    (sum, count) => averageRating(Number(sum), Number(count)));
  sqlite.function('rank_score', { deterministic: true },
    (visits, ratingsCount, ratingsSum, comments, createdAt, now) => rankScore({
      visits: Number(visits), ratingsCount: Number(ratingsCount), ratingsSum: Number(ratingsSum),
      comments: Number(comments), createdAt: String(createdAt),
    }, Number(now)));
}

type Statement = ReturnType<SqliteDatabase['prepare']>;

/**
 * Kysely prepares every query anew; preparing was an eighth of a write's CPU here. Statements are
 * reused by their SQL text instead, which is safe because better-sqlite3 runs one statement at a
 * time and a stream (Kysely's only lazy use of one) reads its table to the end. None is ever
 * dropped (sqlite.kept-objects.ts): the code makes a bounded set of texts, about 150 per
 * connection over the whole API test suite's heaviest files.
 */
function withStatementCache(sqlite: SQLite.Database, waits: LockWaits): SqliteDatabase {
  const statements = keepUntilExit(new Map<string, Statement>());
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = countingLockWaits(sqlite, sqlite.prepare(sql), sql, waits);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * A statement that may wait for the write lock counts itself in `waits` while it runs: BEGIN
 * IMMEDIATE, and a write outside a transaction (inside one, the lock is already held). Every
 * statement keeps the iterators of its streams (sqlite.kept-objects.ts).
 */
function countingLockWaits(sqlite: SQLite.Database, statement: SQLite.Statement, sql: string, waits: LockWaits): Statement {
  const plain = statement as unknown as Statement;
  const iterate: Statement['iterate'] = (parameters) => keepUntilExit(plain.iterate(parameters));
  if (statement.readonly && !/^\s*begin\s+immediate\b/i.test(sql)) {
    return { reader: plain.reader, all: (parameters) => plain.all(parameters), run: (parameters) => plain.run(parameters), iterate };
  }
  const counted = <T>(run: () => T): T => {
    if (sqlite.inTransaction) return run();
    waits.count += 1;
    waits.listener?.(waits.count);
    try {
      return run();
    } finally {
      waits.count -= 1;
      waits.listener?.(waits.count);
    }
  };
  return {
    reader: plain.reader,
    all: (parameters) => counted(() => plain.all(parameters)),
    run: (parameters) => counted(() => plain.run(parameters)),
    iterate,
  };
}
