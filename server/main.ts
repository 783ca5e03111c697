// Entry point: `npm start`. Reads the environment, serves, and shuts down cleanly on a signal.
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

/** In-flight requests get this long to finish; then the process ends regardless, still inside
 * the 10 s Docker waits before SIGKILL. */
const SHUTDOWN_DEADLINE_MS = 8_000;
/** An idle keep-alive socket is closed once it has been quiet this long (server/shutdown.ts). */
const IDLE_GRACE_MS = 1_000;

async function main(): Promise<void> {
  const running = await startServer(loadConfig());
  const { log, config } = running.ctx;
  log.info({
    url: running.url, listening: `${config.host}:${(running.server.address() as AddressInfo).port}`,
    public_url: config.publicUrl, data_dir: config.dataDir,
  }, 'Beatnik is serving');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    // close() stops accepting before it returns, so this line means the port is closed.
    const closed = running.close({ idleGraceMs: IDLE_GRACE_MS });
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error({ ms: SHUTDOWN_DEADLINE_MS }, 'requests still running at the shutdown deadline; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    closed.then(() => {
      log.info({ ms: Date.now() - started }, 'stopped');
      process.exit(0);
    }, (err) => {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  // Start-up mistakes (a bad setting, a busy port, an unwritable data directory) are one line
  // naming what to change; anything else is a bug and keeps its stack.
  if (err instanceof ConfigError) console.error(err.message);
  else console.error('beatnik: failed to start:', err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
