// Runs the admin CLI (or another script) as an operator would: a child process on DATA_DIR; and
// reads the database file directly to check what it did.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(dataDir: string, args: string[], input?: string): Promise<Run> {
  return runScript('scripts/admin.ts', dataDir, args, input);
}

/** Runs one of scripts/ as `npm run` would, with DATA_DIR (and `extraEnv`) set; resolves when it exits. */
export function runScript(script: string, dataDir: string, args: string[], input?: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extraEnv };
    delete env.LOG_LEVEL;
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

export function query<T = any>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dataDir, 'beatnik.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

