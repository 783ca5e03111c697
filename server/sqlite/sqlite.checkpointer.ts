// WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside whichever
// commit crosses the threshold, copying pages and syncing the file on the event loop; here a
// child process with its own connection checkpoints every interval instead (PASSIVE: it never
// blocks writers). The main connection keeps a high automatic threshold as a fallback.
//
// The child runs only while there is work: it starts when the WAL file changes and exits after
// a minute with nothing new to copy, so an idle site holds no second process. A process, not a
// worker thread: on Node 24 (the container's) better-sqlite3 12 can abort the process it runs in
// (sqlite.kept-objects.ts, sqlite.ranks-refresh.ts), and this one ends and starts again all day;
// whatever happens to it here, the server goes on. The price, while it runs: about 30 MB of
// memory of its own (PSS; a thread added about 8 MB to the server's).
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';

// CommonJS for `node -e`: no module of its own to find beside the bundle. Its connection and
// statement live as long as it does (sqlite.kept-objects.ts says why). It leaves with
// process.exit once its connection is closed, when the server goes (the channel closes), so
// that it never outlives it, and on SIGTERM or SIGINT.
const CHILD_SOURCE = `
const { statSync } = require('node:fs');
const [driver, file, intervalMs, idleTicks] = process.argv.slice(1);
const Database = require(driver);
const db = new Database(file);
db.exec('PRAGMA busy_timeout = 1000');
db.exec('PRAGMA cache_size = -256'); // it only copies WAL frames: no need for better-sqlite3's 16 MB default
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let lastFrames = -1;
let idle = 0;
const finish = () => { clearInterval(timer); db.close(); process.exit(0); };
const timer = setInterval(() => {
  try {
    const { log } = checkpoint.get();
    idle = log === lastFrames ? idle + 1 : 0;
    lastFrames = log;
    if (idle >= Number(idleTicks)) {
      clearInterval(timer);
      process.send({ idleSince: walMtime() }, finish);
    }
  } catch (err) {
    process.send({ error: String(err && err.message) }, () => {}); // lost if the server is gone
  }
}, Number(intervalMs));
function walMtime() {
  try { return statSync(file + '-wal').mtimeMs; } catch { return 0; }
}
process.on('message', finish);
process.on('disconnect', finish);
// Ctrl-C, and systemd's stop (KillMode=control-group), signal the server's whole group: this one
// ends cleanly beside it, where a default death would be logged as a failed checkpoint.
process.on('SIGTERM', finish);
process.on('SIGINT', finish);
`;

/** It allocates next to nothing: a heap that stays small. */
const CHILD_FLAGS = ['--max-old-space-size=16', '--max-semi-space-size=1'];

export interface Checkpointer {
  /** Whether a checkpointing process is running now. */
  readonly active: boolean;
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** How long the process stays with nothing to copy before it exits. */
  idleExitMs?: number;
}

export function startCheckpointer(
  file: string, onError: (message: string) => void, options: CheckpointerOptions = {},
): Checkpointer {
  const intervalMs = options.intervalMs ?? 1000;
  const idleTicks = Math.max(1, Math.round((options.idleExitMs ?? 60_000) / intervalMs));
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let running: { child: ChildProcess; exited: Promise<void> } | undefined;
  const walMtime = () => {
    try {
      return statSync(`${file}-wal`).mtimeMs;
    } catch {
      return 0;
    }
  };
  let seenMtime = walMtime();

  const spawnChild = () => {
    const child = spawn(process.execPath, [...CHILD_FLAGS, '-e', CHILD_SOURCE, driver, file, String(intervalMs), String(idleTicks)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: { error?: string; idleSince?: number }) => {
      if (message.error) onError(message.error);
      // Writes after the child's last look change the WAL again and start a new one.
      if (message.idleSince !== undefined) seenMtime = message.idleSince;
    });
    const exited = new Promise<void>((resolve) => {
      const ended = () => {
        running = undefined;
        resolve();
      };
      child.on('error', (err) => {
        onError(err.message);
        if (child.pid === undefined) ended(); // it never started, and will not close either
      });
      child.once('close', (code, signal) => {
        // Ended by the operator's signal before its own handlers were in place: not a failure.
        const stopped = signal === 'SIGTERM' || signal === 'SIGINT';
        if (code !== 0 && !stopped) onError(`the checkpointing process ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`);
        ended();
      });
    });
    // It must not keep the server's process alive by itself (the server's own stop ends it).
    child.unref();
    child.channel?.unref();
    running = { child, exited };
  };

  const watch = setInterval(() => {
    const mtime = walMtime();
    if (running || mtime === seenMtime) return;
    seenMtime = mtime;
    spawnChild();
  }, intervalMs);
  watch.unref();

  return {
    get active() {
      return running !== undefined;
    },
    async stop() {
      clearInterval(watch);
      const current = running;
      if (!current) return;
      current.child.ref(); // keep the server's process alive until the child has closed its connection
      if (current.child.connected) current.child.send('stop');
      await current.exited;
    },
  };
}
