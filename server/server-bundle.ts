// How the server's code is bundled by esbuild: scripts/build.ts for dist/server (the server, the
// ranking refresh's child, the admin CLI), and sqlite/sqlite.ranks-worker-entry.ts for the
// refresh's child when running from the sources. One ES module per entry, for the Node the
// project supports.
import type { BuildOptions } from 'esbuild';

export const SERVER_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Pure-JS dependencies are bundled in: one module to load instead of hundreds of small files,
  // which saves memory and start-up time. Native addons and the S3 client stay in node_modules,
  // and so does esbuild, which only a run from the sources loads.
  external: ['better-sqlite3', 'argon2', 'sharp', '@aws-sdk/client-s3', 'esbuild'],
  // CommonJS dependencies call require(); give the ES module one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
} satisfies BuildOptions;
