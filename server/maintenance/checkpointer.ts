// WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside whichever
// commit crosses the threshold, copying pages and syncing the file on the event loop; here a
// worker thread with its own connection checkpoints every second instead (PASSIVE: it never
// blocks writers). The main connection keeps a high automatic threshold as a fallback.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('cache_size = -256'); // it only copies WAL frames: no need for better-sqlite3's 16 MB default
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err && err.message)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, onError: (message: string) => void, intervalMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs } });
  worker.on('message', (message: string) => onError(message));
  worker.on('error', (err) => onError(err.message));
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.ref(); // keep the process alive until the worker has closed its connection
      worker.postMessage('stop');
      await exited;
    },
  };
}
