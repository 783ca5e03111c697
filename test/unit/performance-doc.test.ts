// docs/performance.md has two writers (bench, lighthouse): each rewrites its own block only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BENCH_BLOCK, renderReport } from '../../scripts/bench/report.ts';
import { LIGHTHOUSE_BLOCK } from '../../scripts/lighthouse/report.ts';
import { PERFORMANCE_DOC, withBlock } from '../../scripts/performance-doc.ts';

const DOC = `# Performance

Intro by hand.

<!-- measurements: written by npm run bench -->
old bench table
<!-- end of measurements -->

## Lighthouse (mobile)

<!-- lighthouse: written by npm run lighthouse -->
old lighthouse table
<!-- end of lighthouse -->

Analysis by hand.
`;

test('each script replaces its own block and keeps the other block and the prose', () => {
  const afterBench = withBlock(DOC, BENCH_BLOCK, 'new bench table');
  assert.equal(afterBench, DOC.replace('old bench table', 'new bench table'));
  const afterBoth = withBlock(afterBench, LIGHTHOUSE_BLOCK, '| page | score |\n');
  assert.equal(afterBoth, DOC.replace('old bench table', 'new bench table').replace('old lighthouse table', '| page | score |'));
});

test('a block the document lacks is appended under its heading, not written over the file', () => {
  const doc = '# Performance\n\nOnly the bench so far.\n';
  assert.equal(withBlock(doc, LIGHTHOUSE_BLOCK, 'scores'),
    '# Performance\n\nOnly the bench so far.\n\n## Lighthouse (mobile)\n\n'
    + '<!-- lighthouse: written by npm run lighthouse -->\nscores\n<!-- end of lighthouse -->\n');
  assert.equal(withBlock('', BENCH_BLOCK, 'table'),
    '# Performance\n\n<!-- measurements: written by npm run bench -->\ntable\n<!-- end of measurements -->\n');
});

test('docs/performance.md carries both blocks', () => {
  const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
  for (const block of [BENCH_BLOCK, LIGHTHOUSE_BLOCK]) {
    assert.match(doc, new RegExp(`<!-- ${block.name}: written by npm run ${block.script} -->[^]*<!-- end of ${block.name} -->`));
  }
});

test("docs/performance.md's figures come from the bench as it measures now", () => {
  const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
  const block = doc.slice(doc.indexOf('<!-- measurements:'), doc.indexOf('<!-- end of measurements -->'));
  const none = { count: 0, worst: 0, p99: 0 };
  const fresh = renderReport({
    rows: [], mixedRow: 'mixed', mixedRates: { visits: 100, ratings: 20 }, visits: { requests: 0, counted: 0 },
    coldStartMs: 0, startRssMb: 0, idleRssMb: 0, idleWaitS: 65, loadedRssMb: 0, refreshMs: 0, refreshedPosts: 0,
    refresh: { refreshes: [], health: { during: none, outside: none }, writes: { during: none, outside: none }, loadAverage: [0, 0] },
    refreshSize: 1_000_000, duration: 10, warmup: 3, connections: 50, machine: '', size: {},
  });
  // The table's columns and the targets' names, as the bench writes them today.
  const shape = fresh.split('\n').filter((line) => line.startsWith('| endpoint') || /^\| [a-z].* \| /.test(line))
    .map((line) => line.split(' | ')[0]!);
  assert.ok(shape.length >= 8, shape.join('\n'));
  for (const start of shape) assert.ok(block.includes(`\n${start} | `), `the block lacks: ${start}`);
  assert.ok(block.includes(fresh.split('\n').find((line) => line.startsWith('| endpoint'))!), 'the same columns');
});
