// Test support: the processes a process started, read from /proc (Linux, as CI), to check that
// none outlives its work or its parent.
import { readdirSync, readFileSync } from 'node:fs';

/** A process's parent and state (Z: ended, not yet reaped), or undefined once it is gone. */
function processStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state! };
  } catch {
    return undefined;
  }
}

export function running(pid: number): boolean {
  return ![undefined, 'Z', 'X'].includes(processStat(pid)?.state);
}

/** The running children of `parent` whose command line holds `marker`. */
export function childProcesses(marker: string, parent = process.pid): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    if (processStat(pid)?.ppid !== parent || !running(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  });
}
