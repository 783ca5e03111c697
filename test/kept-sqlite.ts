// A better-sqlite3 connection for tests that read or write a database file directly. On Node 24
// better-sqlite3 12 aborts the process when the garbage collector frees one of its objects
// (server/sqlite/sqlite.kept-objects.ts), so this connection and every statement it prepares,
// its pragmas' too, are kept until the process ends. Tests make few.
import SQLite from 'better-sqlite3';
import { keepUntilExit } from '../server/sqlite/sqlite.kept-objects.ts';

export function openKeptSqlite(file: string, options?: SQLite.Options): SQLite.Database {
  const db = keepUntilExit(new SQLite(file, options));
  const prepare = db.prepare.bind(db);
  const keptPrepare = (source: string) => keepUntilExit(prepare(source));
  db.prepare = keptPrepare as typeof db.prepare;
  // The driver's own pragma() prepares past db.prepare, so its statement would be freed.
  db.pragma = (source: string, pragmaOptions?: SQLite.PragmaOptions) => {
    const statement = keptPrepare(`PRAGMA ${source}`);
    if (!statement.reader) {
      statement.run();
      return pragmaOptions?.simple ? undefined : [];
    }
    return pragmaOptions?.simple ? statement.pluck().get() : statement.all();
  };
  return db;
}
