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

/**
 * The bundle with every character outside ASCII written as its \u escape. V8 keeps a module's
 * source in memory while it runs, one byte a character when all of them fit in one and two
 * otherwise: the few that esbuild copies as they are (in comments and regular expressions: an
 * ellipsis, a dash) doubled the server's 4.4 MB of source in memory, 4 MB of its idle RSS. In a
 * string, a regular expression, an identifier or a comment the escape stands for the same
 * character (in a raw template string it would not: none has one). After a backslash it would not
 * either, so that fails the build. The source map's columns after an escape on its line move by
 * five: a few comment and pattern lines.
 */
export function asciiOnly(code: string): string {
  return code.replace(/(\\*)([^\x00-\x7f])/g, (_, backslashes: string, char: string) => {
    if (backslashes.length % 2 === 1) throw new Error(`cannot escape ${JSON.stringify(char)} after a backslash in the server bundle`);
    return backslashes + `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
