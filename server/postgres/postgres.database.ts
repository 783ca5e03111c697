// The PostgreSQL dialect: the one module that opens `pg`. Kysely's PostgresDialect over a pool,
// with the value conversions the rest of the code expects from SQLite: numbers as numbers.
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config.ts';
import type { Database, DB } from '../schema.ts';

/** Connections per instance: a request holds one for a statement or a transaction at a time. */
const POOL_SIZE = 10;
/** A server that does not answer (a firewall dropping packets) fails start-up instead of hanging it. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * pg returns int8 (count(*), sum() of integers) and numeric as strings so that no precision is
 * lost. Beatnik's counts fit a double by far, and SQLite gives numbers: convert in one place.
 */
export const postgresTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return Number;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export function openPostgres(url: string, options: { poolSize?: number } = {}): DB {
  const pool = new pg.Pool({
    connectionString: url, max: options.poolSize ?? POOL_SIZE, types: postgresTypes, connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle connection that breaks (the server restarted) is dropped and replaced, not fatal.
  pool.on('error', () => {});
  // pg's pool listens for errors on idle connections only: one that breaks while checked out (the
  // server restarted, an administrator's pg_terminate_backend) emits 'error' on itself, fatal
  // without a listener. Its statement fails with the cause (a 503, errors.ts), and the pool drops
  // it on release, as it is no longer queryable. Listened to from the moment the pool first hands
  // it out ('connect' comes before that, synchronously): the server's termination can arrive in
  // the same read as the connection's ReadyForQuery, before the caller has it.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingStatements(pool) }) });
}

/** Distinct statements named at most, so one-off texts cannot grow every connection without end. */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `beatnik_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Runs every statement as a named prepared statement: each connection parses and plans a text
 * once, then only binds and executes it. pg's unnamed statements parse and plan on every run,
 * and on the hot paths (a rating is six short statements) that was a good share of the
 * database's work. Names map one to one to texts in this process, so a connection never sees
 * one name for two texts.
 */
function preparingStatements(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = {
          query: ((text: unknown, values?: unknown[]) => (typeof text === 'string'
            ? client.query({ name: statementName(text), text, values })
            : client.query(text as pg.Submittable))) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/**
 * Connects once: an unreachable or refusing server is one line naming host and port, and the
 * setting that gave the URL (DATABASE_URL, or a command's option).
 */
export async function checkPostgres(db: DB, url: string, setting = 'DATABASE_URL'): Promise<void> {
  try {
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
  } catch (err) {
    throw new ConfigError(`Cannot connect to PostgreSQL at ${describeServer(url)} (${setting}): ${reasonOf(err)}`);
  }
}

/**
 * A start-up statement refused for want of a privilege (SQLSTATE 42501): the user the URL names
 * is not the one that owns Beatnik's tables, a setting to change rather than a bug, said in one
 * line. Anything else: undefined.
 */
export function privilegeProblem(err: unknown, url: string, setting = 'DATABASE_URL'): ConfigError | undefined {
  const e = err as { code?: string; message?: string };
  if (e.code !== '42501') return undefined;
  const user = decodeURIComponent(new URL(url).username);
  return new ConfigError(`PostgreSQL ${user ? `user "${user}"` : 'user'} lacks a privilege Beatnik needs at `
    + `${describeServer(url)} (${setting}): ${(e.message ?? '').split('\n')[0]}; `
    + 'that user must own the database and every table in it (docs/scaling.md, Running on PostgreSQL)');
}

/** host:port/database of a connection URL, without its user or password. */
export function describeServer(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname || parsed.searchParams.get('host');
  return `${host}:${parsed.port || 5432}${parsed.pathname}`;
}

/** Something listens there, and hangs up on PostgreSQL's first message. */
const CLOSED = 'the server closed the connection (is that PostgreSQL\'s port?)';

/** Why a first connection failed, in the words of the one line start-up prints. */
export function reasonOf(err: unknown): string {
  const e = err as { code?: string; message?: string };
  switch (e.code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN': return 'host name cannot be resolved';
    case 'ETIMEDOUT': return 'connection timed out';
    case 'ECONNRESET':
    case 'EPIPE': return CLOSED;
    case '28P01':
    case '28000': return 'authentication failed';
    case '3D000': return 'the database does not exist';
  }
  // pg's own errors carry no code: say what they mean for the setting.
  switch (e.message) {
    case 'Connection terminated due to connection timeout':
    case 'timeout exceeded when trying to connect':
      return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s (connection timed out)`;
    case 'Connection terminated unexpectedly': return CLOSED;
    default: return (e.message ?? String(err)).split('\n')[0]!;
  }
}
