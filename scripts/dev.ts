// `npm run dev`: rebuilds the client on every change (esbuild watch) and runs the server with
// `node --watch`. The server reads dist/client into memory at start, so each client rebuild
// restarts it too. Ctrl-C stops both.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { cleanOutput, clientBuildOptions, OUT_DIR, ROOT, writePage } from './build.ts';

const ASSETS_DIR = path.join(OUT_DIR, 'assets');
let server: ChildProcess | undefined;
let restarting = false;
let stopping = false;

function startServer(): void {
  server = spawn(process.execPath, ['--import', 'tsx', '--watch', '--watch-preserve-output', 'server/main.ts'], {
    cwd: ROOT, stdio: 'inherit', env: process.env,
  });
  server.on('exit', () => {
    server = undefined;
    if (restarting && !stopping) {
      restarting = false;
      startServer();
    }
  });
}

function restartServer(): void {
  if (!server) return startServer();
  if (restarting) return;
  restarting = true;
  server.kill('SIGTERM');
}

/** Hashed names change on every rebuild: drop the outputs of earlier builds. */
function removeStaleAssets(metafile: esbuild.Metafile): void {
  const current = new Set(Object.keys(metafile.outputs).map((file) => path.resolve(ROOT, file)));
  for (const name of readdirSync(ASSETS_DIR)) {
    const file = path.join(ASSETS_DIR, name);
    if (!current.has(file)) rmSync(file, { force: true });
  }
}

const pagePlugin: esbuild.Plugin = {
  name: 'beatnik-page',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0 || !result.metafile) {
        console.error(`dev: client build failed (${result.errors.length} errors); keeping the last good build`);
        return;
      }
      removeStaleAssets(result.metafile);
      writePage(result.metafile);
      console.log(`dev: client rebuilt at ${new Date().toLocaleTimeString()}`);
      restartServer();
    });
  },
};

async function main(): Promise<void> {
  cleanOutput();
  const context = await esbuild.context({ ...clientBuildOptions(true), plugins: [pagePlugin] });
  await context.watch();
  console.log('dev: watching client/ and server/; Ctrl-C stops');

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await context.dispose();
    if (server) server.kill('SIGTERM');
    process.exitCode = 0;
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
