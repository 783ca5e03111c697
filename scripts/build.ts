// Builds the client into dist/client: esbuild bundle (content-hashed JS, CSS and fonts under
// assets/), index.html pointing at the hashed files, a favicon, and .br/.gz copies of every text
// file so the server never compresses per request (RECIPES.md, Client bundle). Also bundles the
// server into dist/server/main.js.
//
// `--if-stale` (what `npm start` runs first) builds only when a source is newer than the last
// build, so a restart does not pay for a build it does not need.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { readShell } from '../server/pages/pages.document.ts';
import { asciiOnly, SERVER_BUNDLE } from '../server/server-bundle.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_SRC = path.join(ROOT, 'client');
export const OUT_DIR = path.join(ROOT, 'dist/client');
const ASSETS_DIR = path.join(OUT_DIR, 'assets');
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.map', '.json', '.txt']);
/** The fonts of nearly every first paint (masthead, headlines, body text, the italic of bylines and
 * ledes; client/styles/fonts.css): index.html preloads them so they arrive with the script, not
 * after it has rendered text, which would then be set again. */
const PRELOADED_FONTS = ['unifrakturmaguntia-latin-400-normal.woff2', 'playfair-display-latin-wght-normal.woff2',
  'libre-baskerville-latin-wght-normal.woff2', 'libre-baskerville-latin-400-italic.woff2'];
/** Below this size a compressed copy saves nothing worth a second file. */
const MIN_COMPRESS_BYTES = 256;

/** `outDir`: dist/client, or elsewhere for a second build beside it (test/e2e/hydration-dev.test.ts). */
export function clientBuildOptions(dev = false, outDir = OUT_DIR): esbuild.BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: { main: 'client/main.tsx', beatnik: 'client/styles/beatnik.css' },
    outdir: path.join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    // Pages loaded with React.lazy become their own chunks; code they share with the entry
    // goes to a shared chunk the page preloads (writePage).
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: !dev,
    sourcemap: true,
    metafile: true,
    legalComments: 'linked',
    loader: { '.woff2': 'file', '.woff': 'file', '.svg': 'file', '.png': 'file' },
    define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
    logLevel: 'warning',
  };
}

/** An output file's address on the site ('/assets/…'). */
function sitePath(outputFile: string, outDir: string): string {
  return '/' + path.relative(outDir, path.resolve(ROOT, outputFile)).split(path.sep).join('/');
}

/** The output file (as the metafile names it) built from one entry point. */
function outputFor(metafile: esbuild.Metafile, entry: string, ext: string): string {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (output.entryPoint === entry && file.endsWith(ext)) return file;
  }
  throw new Error(`build: no ${ext} output for ${entry}`);
}

/** Every chunk a script imports statically, directly or not: the browser needs them all before
 * the script runs, so the page asks for them at once instead of one import after another. */
function staticChunks(metafile: esbuild.Metafile, file: string, found = new Set<string>()): Set<string> {
  for (const imported of metafile.outputs[file]?.imports ?? []) {
    if (imported.kind !== 'import-statement' || imported.external || found.has(imported.path)) continue;
    found.add(imported.path);
    staticChunks(metafile, imported.path, found);
  }
  return found;
}

/** The output file of each preloaded font, found by the source file it was copied from. */
function preloadedFonts(metafile: esbuild.Metafile): string[] {
  return PRELOADED_FONTS.map((font) => {
    const output = Object.entries(metafile.outputs)
      .find(([, out]) => Object.keys(out.inputs).some((input) => path.basename(input) === font));
    if (!output) throw new Error(`build: the stylesheet no longer uses ${font}; update PRELOADED_FONTS`);
    return output[0];
  });
}

/** index.html and the favicon, written after every (re)build. */
export function writePage(metafile: esbuild.Metafile, outDir = OUT_DIR): void {
  const js = outputFor(metafile, 'client/main.tsx', '.js');
  const css = outputFor(metafile, 'client/styles/beatnik.css', '.css');
  const fonts = preloadedFonts(metafile).map((font) => `<link rel="preload" href="${sitePath(font, outDir)}" as="font" type="font/woff2" crossorigin>`);
  const chunks = [...staticChunks(metafile, js)].map((chunk) => `<link rel="modulepreload" href="${sitePath(chunk, outDir)}">`);
  const template = readFileSync(path.join(CLIENT_SRC, 'index.html'), 'utf8');
  const html = template
    .replace('<!-- styles -->', `<link rel="stylesheet" href="${sitePath(css, outDir)}">`)
    .replace('<!-- scripts -->', [`<script type="module" src="${sitePath(js, outDir)}"></script>`, ...chunks, ...fonts].join('\n    '));
  if (html === template) throw new Error('build: client/index.html lacks the <!-- styles --> and <!-- scripts --> markers');
  if (!readShell(html)) throw new Error('build: client/index.html lacks the places the server writes a page into (server/pages/pages.document.ts)');
  writeFileSync(path.join(outDir, 'index.html'), html);
  copyFileSync(path.join(CLIENT_SRC, 'favicon.svg'), path.join(outDir, 'favicon.svg'));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** Writes file.br and file.gz beside every text file, when they are smaller than it. */
export function precompress(dir = OUT_DIR): void {
  for (const file of listFiles(dir)) {
    if (!COMPRESSIBLE.has(path.extname(file))) continue;
    const data = readFileSync(file);
    if (data.length < MIN_COMPRESS_BYTES) continue;
    const br = brotliCompressSync(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    });
    const gz = gzipSync(data, { level: 9 });
    if (br.length < data.length) writeFileSync(`${file}.br`, br);
    if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
  }
}

export function cleanOutput(): void {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(ASSETS_DIR, { recursive: true });
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export const SERVER_OUT = path.join(ROOT, 'dist/server/main.js');
export const ADMIN_OUT = path.join(ROOT, 'dist/server/admin.js');

/** The server as one ES module: production starts it with plain node, without a TypeScript
 * loader in memory. The ranking refresh's child process is a second entry point beside it (its
 * module, server/sqlite/sqlite.ranks-refresh.ts, forks it from there), and the admin CLI a third
 * (`npm run admin`): bundled, it starts in a fifth of the CPU time it took under tsx. */
export async function buildServer(): Promise<void> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'server/main.ts', 'sqlite.ranks-worker': 'server/sqlite/sqlite.ranks-worker.ts', admin: 'scripts/admin.ts' },
    outdir: path.dirname(SERVER_OUT),
    ...SERVER_BUNDLE,
    // Code loaded only when asked for (the federation, with Fedify, when FEDERATION is on) stays in
    // chunks of its own, which a server that never asks never reads.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // The pages it renders with React (server/pages/): React's production build, not its
    // development one with its checks and warnings, which is what an undefined NODE_ENV selects.
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    sourcemap: true,
    write: false,
    logLevel: 'warning',
  });
  // Chunks are named by their hash: those of an earlier build go.
  rmSync(path.join(path.dirname(SERVER_OUT), 'chunks'), { recursive: true, force: true });
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  }
}

/** Everything a build reads, besides node_modules (which the lockfile stands for). */
const SOURCES = ['client', 'server', 'shared', 'migrations', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.ts', 'scripts/admin.ts', 'scripts/admin'];
/** Written after a successful build, dated when that build started. */
const STAMP = path.join(ROOT, 'dist/build-stamp');

function newestMtime(file: string): number {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newestMtime(path.join(file, name))));
}

/** True when the last build finished and no source has changed since it started. */
export function buildIsCurrent(): boolean {
  const stamp = statSync(STAMP, { throwIfNoEntry: false });
  if (!stamp || ![SERVER_OUT, ADMIN_OUT, path.join(OUT_DIR, 'index.html')].every((file) => existsSync(file))) return false;
  return SOURCES.every((source) => newestMtime(path.join(ROOT, source)) <= stamp.mtimeMs);
}

async function main(): Promise<void> {
  const ifStale = process.argv.includes('--if-stale');
  // Before another command (prestart, preadmin) the build speaks on stderr: the command's output,
  // such as `npm run -s admin -- stats`, stays its own.
  const say = ifStale ? console.error : console.log;
  if (ifStale && buildIsCurrent()) {
    say('build: dist/ is up to date with the sources (npm run build rebuilds anyway)');
    return;
  }
  const startedAt = new Date();
  const started = performance.now();
  rmSync(STAMP, { force: true });
  cleanOutput();
  const [result] = await Promise.all([esbuild.build(clientBuildOptions()), buildServer()]);
  writePage(result.metafile!);
  precompress();
  // Dated when the build started: a source saved while it ran makes the next start build again.
  writeFileSync(STAMP, '');
  utimesSync(STAMP, startedAt, startedAt);
  const files = listFiles(OUT_DIR).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'));
  const describe = (ext: string) => files.filter((f) => f.endsWith(ext)).map((f) =>
    `${path.basename(f)} ${kb(sizeOf(f))} (br ${kb(sizeOf(`${f}.br`))}, gz ${kb(sizeOf(`${f}.gz`))})`);
  const fonts = files.filter((f) => /\.woff2?$/.test(f));
  const fontBytes = fonts.reduce((sum, f) => sum + sizeOf(f), 0);
  say(`build: dist/server/main.js ${kb(sizeOf(SERVER_OUT))}; dist/client, ${files.length} files in ${Math.round(performance.now() - started)} ms: `
    + [...describe('.js'), ...describe('.css'), `${fonts.length} fonts ${kb(fontBytes)}`].join('; '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
