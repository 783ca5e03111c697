// Hand-written prepared statements for the paths every request takes: the signed-in user,
// reading an article, rating, commenting, and the counters they move. Kysely builds, compiles
// and awaits each query anew, which cost several times what SQLite spent on those paths; the
// repos behind them run plain SQL on the same better-sqlite3 connection instead.
//
// The connection is shared with Kysely, whose transactions span awaits: plain SQL run while one
// of those is open would land inside it. So a Connection is only handed out where that cannot
// happen: by `withConnection` (at once when no transaction is open, else after Kysely's lock) and
// by `transaction` (inside the Kysely transaction it opens).
import type SQLite from 'better-sqlite3';
import {
  DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable,
} from 'kysely';
import type { DB, OpenDatabase } from './db.ts';
import type { Database } from './schema.ts';

type Param = string | number | bigint | null | Buffer;

export class Connection {
  readonly #sqlite: SQLite.Database;

  constructor(sqlite: SQLite.Database) {
    this.#sqlite = sqlite;
  }

  get<Row>(sql: string, ...params: Param[]): Row | undefined {
    return preparedStatement(this.#sqlite, sql).get(...params) as Row | undefined;
  }

  all<Row>(sql: string, ...params: Param[]): Row[] {
    return preparedStatement(this.#sqlite, sql).all(...params) as Row[];
  }

  run(sql: string, ...params: Param[]): SQLite.RunResult {
    return preparedStatement(this.#sqlite, sql).run(...params);
  }

  /** Runs `work` all or nothing: a transaction, or a savepoint inside an open one. */
  atomically<T>(work: () => T): T {
    return this.#sqlite.transaction(work)();
  }
}

/** Runs synchronous SQL with the connection to itself; rejects with whatever `work` throws. */
export function withConnection<T>(database: OpenDatabase, work: (conn: Connection) => T): Promise<T> {
  const conn = new Connection(database.sqlite);
  if (database.sqlite.inTransaction) return database.db.connection().execute(async () => work(conn));
  try {
    return Promise.resolve(work(conn));
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A Kysely transaction that may also run plain SQL: both arguments write to the same one. */
export function transaction<T>(
  database: OpenDatabase, work: (trx: OpenDatabase['db'], conn: Connection) => Promise<T>,
): Promise<T> {
  return database.db.transaction().execute((trx) => work(trx, new Connection(database.sqlite)));
}

/** Kysely as a query builder only: it compiles, never connects. */
const compiler: DB = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/**
 * The SQL text of a query written with Kysely's builder, compiled once at load, for a hot path
 * that shares its shape with Kysely queries. Its parameters are the ones passed when it runs.
 */
export function sqlOf(build: (db: DB) => Compilable): string {
  return build(compiler).compile().sql;
}

const STATEMENT_CACHE_SIZE = 500;
const statementCaches = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

/**
 * A statement reused by its SQL text, for Kysely's queries and ours: preparing is an eighth of
 * a write's CPU here. Safe because better-sqlite3 runs one statement at a time and nothing here
 * iterates a statement lazily. The oldest is dropped when the cache is full.
 */
export function preparedStatement(sqlite: SQLite.Database, sql: string): SQLite.Statement {
  let statements = statementCaches.get(sqlite);
  if (!statements) statementCaches.set(sqlite, statements = new Map());
  let statement = statements.get(sql);
  if (!statement) {
    statement = sqlite.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
  }
  return statement;
}
