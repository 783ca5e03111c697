// WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside whichever
// commit crosses the threshold, copying pages and syncing the file on the event loop; here a
// worker thread with its own connection checkpoints every interval instead (PASSIVE: it never
// blocks writers). The main connection keeps a high automatic threshold as a fallback.
//
// The worker runs only while there is work: it starts when the WAL file changes and exits after
// a minute with nothing new to copy, so an idle site holds no second thread and heap.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('cache_size = -256'); // it only copies WAL frames: no need for better-sqlite3's 16 MB default
let lastFrames = -1;
let idleTicks = 0;
const finish = () => { clearInterval(timer); db.close(); parentPort.close(); };
const timer = setInterval(() => {
  try {
    const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)');
    idleTicks = log === lastFrames ? idleTicks + 1 : 0;
    lastFrames = log;
    if (idleTicks >= workerData.idleTicks) {
      parentPort.postMessage({ idleSince: walMtime() });
      finish();
    }
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message) });
  }
}, workerData.intervalMs);
function walMtime() {
  try { return statSync(workerData.file + '-wal').mtimeMs; } catch { return 0; }
}
parentPort.on('message', finish);
`;

export interface Checkpointer {
  /** Whether a worker is running now. */
  readonly active: boolean;
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** How long the worker stays with nothing to copy before it exits. */
  idleExitMs?: number;
}

export function startCheckpointer(
  file: string, onError: (message: string) => void, options: CheckpointerOptions = {},
): Checkpointer {
  const intervalMs = options.intervalMs ?? 1000;
  const idleTicks = Math.max(1, Math.round((options.idleExitMs ?? 60_000) / intervalMs));
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let worker: { thread: Worker; exited: Promise<void> } | undefined;
  const walMtime = () => {
    try {
      return statSync(`${file}-wal`).mtimeMs;
    } catch {
      return 0;
    }
  };
  let seenMtime = walMtime();

  const spawnWorker = () => {
    const thread = new Worker(WORKER_SOURCE, {
      eval: true, workerData: { driver, file, intervalMs, idleTicks },
      // It allocates next to nothing; V8's default heap sizing would keep megabytes resident.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    thread.on('message', (message: { error?: string; idleSince?: number }) => {
      if (message.error) onError(message.error);
      // Writes after the worker's last look change the WAL again and start a new one.
      if (message.idleSince !== undefined) seenMtime = message.idleSince;
    });
    thread.on('error', (err) => onError(err.message));
    thread.unref();
    const exited = new Promise<void>((resolve) => thread.once('exit', () => {
      worker = undefined;
      resolve();
    }));
    worker = { thread, exited };
  };

  const watch = setInterval(() => {
    const mtime = walMtime();
    if (worker || mtime === seenMtime) return;
    seenMtime = mtime;
    spawnWorker();
  }, intervalMs);
  watch.unref();

  return {
    get active() {
      return worker !== undefined;
    },
    async stop() {
      clearInterval(watch);
      const running = worker;
      if (!running) return;
      running.thread.ref(); // keep the process alive until the worker has closed its connection
      running.thread.postMessage('stop');
      await running.exited;
    },
  };
}
