// The database as a file: online backups, checks before a copy is trusted, and folding the WAL in.
// VACUUM INTO writes a consistent, compacted copy from one read transaction, so the server keeps
// writing meanwhile (WAL).
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
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

// CommonJS for `node -e` (as sqlite.checkpointer.ts's child): a connection of its own, read-only,
// makes the copy and checks it, and prints the check's answer.
const COPY_SOURCE = `
const [driver, file, into] = process.argv.slice(1);
const Database = require(driver);
const db = new Database(file, { readonly: true, fileMustExist: true });
db.exec('PRAGMA busy_timeout = 5000');
db.prepare('VACUUM INTO ?').run(into);
db.close();
const copy = new Database(into, { readonly: true, fileMustExist: true });
const rows = copy.prepare('PRAGMA integrity_check').all();
copy.close();
process.stdout.write(rows.map((r) => r.integrity_check).join('; '));
`;

/**
 * backupDatabase from another process, for the server's scheduled backups: better-sqlite3 is
 * synchronous, so a copy made on the server's own connection would hold every request for as long
 * as it takes (seconds on a large site).
 */
export async function backupDatabaseApart(file: string, into: string): Promise<BackupResult> {
  if (existsSync(into)) throw new Error(`${into} already exists`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(process.execPath, ['-e', COPY_SOURCE, driver, file, into], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) {
    const reason = /^\w*Error: (.*)$/m.exec(stderr)?.[1] ?? `the copying process exited with code ${code}`;
    throw new Error(`the database could not be copied: ${reason}`);
  }
  return { bytes: statSync(into).size, integrity: stdout.trim() };
}

/** Copies every page of the WAL into the main file and empties the WAL, so the file is whole. */
export async function foldWal(db: DB): Promise<void> {
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}
