// The database as a file: online backups, checks before a copy is trusted, and folding the WAL in.
// VACUUM INTO writes a consistent, compacted copy from one read transaction, so the server keeps
// writing meanwhile (WAL).
import { existsSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import { keepUntilExit } from './sqlite.kept-objects.ts';

/** 'ok', or what SQLite's integrity_check found wrong. */
export function integrityOf(file: string): string {
  const db = keepUntilExit(new SQLite(file, { readonly: true, fileMustExist: true }));
  try {
    const rows = keepUntilExit(db.prepare('PRAGMA integrity_check')).all() as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** True when the file is a SQLite database with Beatnik's tables. */
export function isBeatnikDatabase(file: string): boolean {
  try {
    const db = keepUntilExit(new SQLite(file, { readonly: true, fileMustExist: true }));
    try {
      const names = keepUntilExit(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`)).pluck().all() as string[];
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

export async function backupDatabase(db: DB, file: string): Promise<BackupResult> {
  if (existsSync(file)) throw new Error(`${file} already exists`);
  await sql`VACUUM INTO ${file}`.execute(db);
  return { bytes: statSync(file).size, integrity: integrityOf(file) };
}

/** Copies every page of the WAL into the main file and empties the WAL, so the file is whole. */
export async function foldWal(db: DB): Promise<void> {
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}
