// Online backups: VACUUM INTO writes a consistent, compacted copy from one read transaction,
// so the server keeps writing meanwhile (WAL). Every copy is checked before it is trusted.
import { existsSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';

/** 'ok', or what SQLite's integrity_check found wrong. */
export function integrityOf(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** True when the file is a SQLite database with Beatnik's tables. */
export function isBeatnikDatabase(file: string): boolean {
  try {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
      return ['users', 'posts', 'ratings', 'comments'].every((t) => names.includes(t));
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

export interface BackupResult {
  bytes: number;
  integrity: string;
}

export function backupDatabase(sqlite: SQLite.Database, file: string): BackupResult {
  if (existsSync(file)) throw new Error(`${file} already exists`);
  sqlite.prepare('VACUUM INTO ?').run(file);
  return { bytes: statSync(file).size, integrity: integrityOf(file) };
}
