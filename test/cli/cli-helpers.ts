// Runs the admin CLI (or another script) as an operator would: a child process on DATA_DIR (and,
// under npm run test:pg, that directory's PostgreSQL database); and reads the database directly to
// check what it did.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { postgresTypes } from '../../server/postgres/postgres.database.ts';
import { databaseEnv } from '../helpers.ts';
import { openKeptSqlite } from '../kept-sqlite.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The admin CLI as `npm run admin` runs it: the bundle `npm run test:cli` builds first. */
export function cli(dataDir: string, args: string[], input?: string): Promise<Run> {
  return runScript(ADMIN_BUNDLE, dataDir, args, input);
}

export const ADMIN_BUNDLE = 'dist/server/admin.js';

/** Runs one of scripts/ (under tsx) or a built script as `npm run` would, with DATA_DIR (and
 * `extraEnv`) set; resolves when it exits. */
export async function runScript(
  script: string, dataDir: string, args: string[], input?: string, extraEnv: Record<string, string> = {},
): Promise<Run> {
  const built = !script.endsWith('.ts');
  assert.ok(!built || existsSync(path.join(ROOT, script)), `${script} is missing: run \`npm run build\` first`);
  const database = await databaseEnv(dataDir);
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...database, ...extraEnv };
    delete env.LOG_LEVEL;
    const loader = built ? [] : ['--import', 'tsx'];
    const child = spawn(process.execPath, [...loader, script, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Rows of `sql` (with ? placeholders) from the database of `dataDir`, read apart from the app. */
export async function query<T = any>(dataDir: string, sql: string, ...params: unknown[]): Promise<T[]> {
  const url = (await databaseEnv(dataDir)).DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url, types: postgresTypes });
    await client.connect();
    try {
      let n = 0;
      return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = openKeptSqlite(path.join(dataDir, 'beatnik.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

