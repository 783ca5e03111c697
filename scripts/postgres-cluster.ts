// A throwaway PostgreSQL 15 for tests and the bench: initdb in a temporary directory, pg_ctl on a
// free port, removed afterwards (RECIPES.md). Debian's postgresql-15 package provides the binaries;
// initdb refuses root, so as root the cluster runs as the package's `postgres` user.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './bench/processes.ts';

const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT — append a database name. */
  baseUrl: string;
  port: number;
  /** The postmaster's process id: its backends are its children (the bench counts their CPU). */
  pid(): number;
  /** Stops the server as `pg_ctl -m fast stop` does (sessions ended, the data kept), for fault tests. */
  pause(): Promise<void>;
  /** Starts it again after `pause`, on the same port. */
  resume(): Promise<void>;
  stop(): void;
}

export function postgresAvailable(): boolean {
  return existsSync(path.join(BIN, 'initdb'));
}

/**
 * `fsync: true` keeps PostgreSQL's durability (the bench), with commits acknowledged before their
 * WAL reaches the disk (synchronous_commit=off): like SQLite's synchronous=NORMAL, a crash may
 * lose the last transactions, never corrupt. Tests leave it off: the cluster is thrown away.
 */
export async function startPostgresCluster(options: { fsync?: boolean } = {}): Promise<PostgresCluster> {
  if (!postgresAvailable()) {
    throw new Error(`PostgreSQL 15 is not installed (no ${BIN}/initdb): apt-get install -y postgresql-15`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, postgresUid(), postgresGid());
  const command = (tool: string, args: string[]) => (asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, tool), ...args]] as const
    : [path.join(BIN, tool), args] as const);
  const run = (tool: string, args: string[]) => {
    const [file, fileArgs] = command(tool, args);
    execFileSync(file, [...fileArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  /** The same, without blocking this process (a test's requests go on meanwhile). */
  const runAsync = async (tool: string, args: string[]) => {
    const [file, fileArgs] = command(tool, args);
    await promisify(execFile)(file, [...fileArgs]);
  };
  const port = await freePort();
  let settings: string[] = [];
  try {
    run('initdb', ['-D', `${dir}/db`, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
    settings = [
      `-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=300',
      // Tests only: a crash may lose the cluster, which is thrown away anyway.
      '-c synchronous_commit=off',
      ...(options.fsync ? [] : ['-c fsync=off', '-c full_page_writes=off']),
    ];
    run('pg_ctl', ['-D', `${dir}/db`, '-l', `${dir}/log`, '-w', 'start', '-o', settings.join(' ')]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${(err as { stderr?: Buffer }).stderr?.toString() ?? err}`);
  }
  let stopped = false;
  return {
    baseUrl: `postgres://postgres@127.0.0.1:${port}`,
    port,
    pid: () => Number(readFileSync(`${dir}/db/postmaster.pid`, 'utf8').split('\n')[0]),
    pause: () => runAsync('pg_ctl', ['-D', `${dir}/db`, '-m', 'fast', '-w', 'stop']),
    resume: () => runAsync('pg_ctl', ['-D', `${dir}/db`, '-l', `${dir}/log`, '-w', 'start', '-o', settings.join(' ')]),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        // Paused by a test that failed before resuming it: nothing runs.
        if (existsSync(`${dir}/db/postmaster.pid`)) run('pg_ctl', ['-D', `${dir}/db`, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function postgresUid(): number {
  return Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
}

function postgresGid(): number {
  return Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
}
