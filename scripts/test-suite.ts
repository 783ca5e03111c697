// Runs one suite of test/ (`unit`, `api`, `cli`, `e2e`) with node:test, as `npm run test:<suite>`
// does: the suite's test files bundled by esbuild (the code they share in common chunks) and run
// by plain node, two files at a time. Under tsx each test file's process spent 1.4 CPU seconds
// (0.8 on Node 24) in the loader, compiling the project's modules one by one through its hooks
// before the first test: a third of a short file's CPU. The bundles leave packages in
// node_modules, so they load what the sources load, and every module keeps the address of its
// own source as import.meta.url (and dirname, filename): paths found from it are the ones the
// sources find. A single file still runs from its source: `node --import tsx --test
// test/api/posts.test.ts`. A failure's stack names lines of the bundles;
// NODE_OPTIONS=--enable-source-maps names the sources instead, at the price of mapping every
// stack the suite makes (0.6 CPU seconds more in posts.test.ts).
//
// `node --import tsx scripts/test-suite.ts api [node:test options]`
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { ROOT } from './build.ts';

const SUITES = ['unit', 'api', 'cli', 'e2e'];

/** Under node_modules, so that the bundles find the packages from where they lie; one folder per
 * checkout, so that worktrees sharing one node_modules never run or remove each other's bundles. */
const OUT_ROOT = path.join(ROOT, 'node_modules/.cache/beatnik/tests', createHash('sha1').update(ROOT).digest('hex').slice(0, 8));

/** Each module of the project as if it ran from its source file: its import.meta names it. */
const sourceAddresses: esbuild.Plugin = {
  name: 'source-addresses',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const loader = args.path.endsWith('.tsx') ? 'tsx' : 'ts';
      const source = await esbuild.transform(await readFile(args.path, 'utf8'), {
        loader, format: 'esm', sourcefile: args.path, sourcemap: 'inline', jsx: 'automatic',
        define: {
          'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
          'import.meta.dirname': JSON.stringify(path.dirname(args.path)),
          'import.meta.filename': JSON.stringify(args.path),
        },
      });
      return { contents: source.code, loader: 'js' };
    });
  },
};

/** The suite's test files bundled afresh; their paths. */
export async function buildSuite(suite: string): Promise<string[]> {
  const dir = path.join(ROOT, 'test', suite);
  const entries = readdirSync(dir).filter((name) => name.endsWith('.test.ts')).map((name) => path.join(dir, name));
  const outdir = path.join(OUT_ROOT, suite);
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    splitting: true,
    chunkNames: 'shared/[name]-[hash]',
    sourcemap: true,
    plugins: [sourceAddresses],
    logLevel: 'warning',
  });
  return entries.map((entry) => path.join(outdir, path.basename(entry).replace(/\.ts$/, '.mjs')));
}

async function main(): Promise<void> {
  const [suite, ...options] = process.argv.slice(2);
  if (!suite || !SUITES.includes(suite)) throw new Error(`usage: scripts/test-suite.ts ${SUITES.join('|')} [node:test options]`);
  const files = await buildSuite(suite);
  const child = spawn(process.execPath,
    ['--test', '--test-reporter=spec', '--test-concurrency=2', ...options, ...files],
    { stdio: 'inherit' });
  child.on('exit', (code, signal) => { process.exitCode = code ?? (signal ? 1 : 0); });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
