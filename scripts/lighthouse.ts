// npm run lighthouse -- [--runs N] [--data-dir DIR] [--dry-run]
// Builds, seeds a temporary data directory (200 users, 1,000 articles), starts the production
// server on it and runs Lighthouse's mobile preset on Home, an article, The Pulse and Voices, in
// Debian's Chromium (CHROME_PATH; never a downloaded browser). Prints the scores and writes them
// into their block of docs/performance.md. About 20 s per page and run; not part of npm test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startBeatnik, stop } from './bench/processes.ts';
import { LIGHTHOUSE_BLOCK, medianRun, renderLighthouse, renderTable, type PageScore } from './lighthouse/report.ts';
import { PERFORMANCE_DOC, writeBlock } from './performance-doc.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '1' }, 'data-dir': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error('lighthouse: --runs must be a whole number of at least 1');
  process.exit(2);
}
const SEED = { users: 200, posts: 1000 };
// Flags every headless Chromium here needs (RECIPES.md): no sandbox as root, no GPU, and no
// background traffic to hosts this machine cannot reach.
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps',
  '--disable-extensions', '--disable-quic'];

function run(script: string, scriptArgs: string[]): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...scriptArgs], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} failed`);
}

/** A seeded data directory: the one given (seeded when empty) or a temporary one. */
function prepareData(): { dataDir: string; temporary: boolean } {
  const given = args['data-dir'];
  const dataDir = given ? path.resolve(given) : mkdtempSync(path.join(tmpdir(), 'beatnik-lighthouse-'));
  if (!existsSync(path.join(dataDir, 'beatnik.db'))) {
    run('scripts/seed.ts', ['--data-dir', dataDir, '--users', String(SEED.users), '--posts', String(SEED.posts)]);
  }
  return { dataDir, temporary: !given };
}

/** The best-ranked article with a picture: the heaviest article page a reader usually opens. */
async function articlePath(baseUrl: string): Promise<string> {
  const { posts } = await (await fetch(`${baseUrl}/api/ranks`)).json() as { posts: Array<{ id: number; image: string | null }> };
  const post = posts.find((p) => p.image) ?? posts[0];
  if (!post) throw new Error('the seeded site has no ranked article');
  return `/post/${post.id}`;
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is tried again. */
const ATTEMPTS = 3;

async function measure(url: string, port: number) {
  let lhr;
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    lhr = result.lhr;
    if (!lhr.runtimeError) break;
    if (attempt === ATTEMPTS) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  }
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    lhr,
    score: {
      page: new URL(url).pathname, score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcpMs: value('first-contentful-paint'), lcpMs: value('largest-contentful-paint'), tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'), speedIndexMs: value('speed-index'),
    } satisfies PageScore,
  };
}

async function main(): Promise<void> {
  run('scripts/build.ts', []);
  const { dataDir, temporary } = prepareData();
  const server = await startBeatnik('dist/server/main.js', dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS,
  });
  try {
    const pages = ['/', await articlePath(server.url), '/ranks', '/authors'];
    const results: PageScore[] = [];
    let about = { lighthouseVersion: '', browser: '', benchmarkIndex: 0 };
    for (const page of pages) {
      const runs: PageScore[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const { lhr, score } = await measure(server.url + page, chrome.port);
        runs.push(score);
        about = { lighthouseVersion: lhr.lighthouseVersion, browser: browserName(lhr.environment.hostUserAgent),
          benchmarkIndex: lhr.environment.benchmarkIndex };
        console.log(`${page.padEnd(12)} run ${i + 1}: performance ${score.score}, LCP ${Math.round(score.lcpMs)} ms, `
          + `TBT ${Math.round(score.tbtMs)} ms, CLS ${score.cls.toFixed(3)}`);
      }
      results.push(medianRun(runs));
    }
    console.log(`\n${renderTable(results)}\n`);
    if (args['dry-run']) return;
    writeBlock(LIGHTHOUSE_BLOCK, renderLighthouse({
      date: new Date().toISOString().slice(0, 10), ...about, runs: RUNS, pages: results,
      data: `${SEED.users} users and ${SEED.posts.toLocaleString('en-US')} articles (\`npm run seed\`)`,
    }));
    console.log(`Wrote ${PERFORMANCE_DOC}`);
  } finally {
    chrome.kill();
    await stop(server.child);
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** 'Mozilla/5.0 … HeadlessChrome/156.0.8078.79 …' → 'Chromium 156'. */
function browserName(userAgent: string): string {
  const version = /Chrome\/(\d+)/.exec(userAgent)?.[1];
  return version ? `Chromium ${version}` : 'Chromium';
}

main().catch((err: unknown) => {
  console.error('lighthouse: failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
