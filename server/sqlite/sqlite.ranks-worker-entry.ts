// Where the ranking refresh's child module is. In production it is dist/server/sqlite.ranks-worker.js,
// beside the bundle (scripts/build.ts writes both). From the sources (tests, npm run dev) it is the
// same module bundled here by esbuild, once per process: a child started under tsx spent 1.6 CPU
// seconds loading the loader and some forty modules before its first statement, about a third of
// all the API tests' CPU time; a bundle starts in a tenth of that.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asciiOnly, SERVER_BUNDLE } from '../server-bundle.ts';

const FROM_SOURCES = import.meta.url.endsWith('.ts');
const SOURCE = fileURLToPath(new URL('./sqlite.ranks-worker.ts', import.meta.url));
const ROOT = path.resolve(path.dirname(SOURCE), '../..');

let bundled: Promise<string> | undefined;

/** The file to fork. */
export function ranksWorkerFile(): Promise<string> {
  if (!FROM_SOURCES) return Promise.resolve(fileURLToPath(new URL('./sqlite.ranks-worker.js', import.meta.url)));
  // A bundle that failed is tried again at the next refresh.
  bundled ??= bundleFromSources().catch((err: unknown) => {
    bundled = undefined;
    throw err;
  });
  return bundled;
}

/** Written under node_modules, so the child finds the external packages from where it lies, and
 * named by its content: processes that bundle the same sources share one file. */
async function bundleFromSources(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [SOURCE],
    ...SERVER_BUNDLE,
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  const code = asciiOnly(result.outputFiles[0]!.text);
  const dir = path.join(ROOT, 'node_modules/.cache/beatnik');
  const file = path.join(dir, `sqlite.ranks-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  mkdirSync(dir, { recursive: true });
  // Renamed into place whole: a process forking the same file meanwhile never reads half of it.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  return file;
}
