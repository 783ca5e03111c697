// Entry point: `npm start`. Reads the environment, serves, and shuts down cleanly on a signal.
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`beatnik: configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const running = await startServer(config);
  const { log } = running.ctx;
  log.info({
    url: running.url, listening: `${config.host}:${(running.server.address() as AddressInfo).port}`,
    public_url: config.publicUrl, data_dir: running.ctx.config.dataDir,
  }, 'Beatnik is serving');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // In-flight requests get 10 s to finish; after that the process ends regardless.
    setTimeout(() => process.exit(1), 10_000).unref();
    running.close().then(() => process.exit(0), (err) => {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error('beatnik: failed to start:', err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
