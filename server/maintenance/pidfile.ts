// DATA_DIR/beatnik.pid names the server process using the data directory, so operator commands
// that must not run beside it (restore) can refuse. A stale file (crashed server) is ignored.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PID_FILE = 'beatnik.pid';

export function writePidFile(dataDir: string): void {
  writeFileSync(path.join(dataDir, PID_FILE), `${process.pid}\n`);
}

/** Removes the file only if it is still ours. */
export function removePidFile(dataDir: string): void {
  if (runningServerPid(dataDir) === process.pid) rmSync(path.join(dataDir, PID_FILE), { force: true });
}

/** The pid of a live server on this data directory, if any. */
export function runningServerPid(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
