// Child processes for the benchmark: the real server and the ceiling, with their memory and CPU time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN;
}

/** Clock ticks per second, the unit of /proc's CPU times (100 on every usual Linux). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU time a process has used so far (user + system, all its threads), in ms, from
 * /proc/PID/stat: the same kernel count as that process's own `process.cpuUsage()`, read from
 * outside, so the server needs no endpoint or switch to report it. Ticks are 10 ms: a row's
 * seconds of CPU are read to well under 1 %.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces, closed by the last ')': utime and stime
  // are fields 14 and 15 of the line, 12 and 13 of this rest.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(rest[11]) + Number(rest[12])) / CLOCK_TICKS) * 1000;
}

export interface Started {
  child: ChildProcess;
  url: string;
  /** From spawn to the first successful /api/health (or first answer for the ceiling). */
  startMs: number;
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** `onLog` receives each line the server logs (they are not shown then). */
export async function startBeatnik(
  bundle: string, dataDir: string, env: Record<string, string> = {}, onLog?: (line: string) => void,
): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  // The production bundle, as `npm start` runs it (npm run build makes it).
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', RATE_LIMITS: 'off', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', onLog ? 'pipe' : 'inherit', 'inherit'],
  });
  if (onLog) createInterface({ input: child.stdout! }).on('line', onLog);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, child, 60_000);
  return { child, url, startMs: Math.round(performance.now() - started) };
}

export async function startCeiling(): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/ceiling.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk) => resolve(String(chunk).trim())));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/`, child, 30_000);
  return { child, url, startMs: Math.round(performance.now() - started) };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
