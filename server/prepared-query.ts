// A query built and compiled once, then run with new parameters: for the few statements every
// request runs (the signed-in user, an article read, a rating, a comment and the counters they
// move). Building and compiling a Kysely query costs more than SQLite spends answering one of
// these; written this way the SQL is still Kysely's, for whichever dialect the database has.
import type { CompiledQuery, Compilable, QueryResult } from 'kysely';
import type { DB } from './schema.ts';

/** Stands for a parameter while the query is compiled; replaced by its value on each run. */
class Slot {
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }
}

/** The query compiled once, and its parameters as compiled: placeholders and the builder's constants. */
interface Compiled {
  query: Omit<CompiledQuery, 'parameters'>;
  slots: readonly unknown[];
}

/**
 * `build` receives the parameters as placeholders: use each only as a value (in a comparison,
 * an inserted or set value, an `sql` template argument), never in JavaScript logic or as a list.
 */
export function preparedQuery<P extends Record<string, unknown>, Row>(
  build: (db: DB, params: P) => Compilable<Row>,
) {
  // One compiled form per dialect: a transaction shares its database's adapter.
  const byAdapter = new WeakMap<object, Compiled>();
  const placeholders = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as P;

  function compiled(db: DB): Compiled {
    const adapter = db.getExecutor().adapter;
    let prepared = byAdapter.get(adapter);
    if (!prepared) {
      const { parameters, ...query } = build(db, placeholders).compile();
      prepared = { query, slots: parameters };
      byAdapter.set(adapter, prepared);
    }
    return prepared;
  }

  function run(db: DB, params: P): Promise<QueryResult<Row>> {
    const { query, slots } = compiled(db);
    const parameters = slots.map((slot) => (slot instanceof Slot ? params[slot.name] : slot));
    return db.executeQuery<Row>({ ...query, parameters });
  }

  return {
    async all(db: DB, params: P): Promise<Row[]> {
      return (await run(db, params)).rows;
    },
    async first(db: DB, params: P): Promise<Row | undefined> {
      return (await run(db, params)).rows[0];
    },
    /** Rows changed by an insert, update or delete without RETURNING. */
    async changed(db: DB, params: P): Promise<bigint> {
      return (await run(db, params)).numAffectedRows ?? 0n;
    },
  };
}
