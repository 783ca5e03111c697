// The Lighthouse block of docs/performance.md: the median run per page, the target marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { medianRun, renderTable, type PageScore } from '../../scripts/lighthouse/report.ts';

const run = (score: number, lcpMs = 2000): PageScore => ({ page: '/', score, fcpMs: 1500, lcpMs, tbtMs: 60, cls: 0, speedIndexMs: 1600 });

test('a page is reported by its run with the middle score', () => {
  assert.equal(medianRun([run(97, 1), run(91, 2), run(94, 3)]).lcpMs, 3);
  assert.equal(medianRun([run(97), run(91)]).score, 91, 'an even count takes the lower middle');
  assert.throws(() => medianRun([]));
});

test('scores under the target of 95 stand out in the table', () => {
  const table = renderTable([run(96), { ...run(94), page: '/post/7', cls: 0.1234, tbtMs: 87.6 }]);
  assert.equal(table.split('\n').slice(2).join('\n'),
    '| / | 96 | 1.5 s | 2.0 s | 60 ms | 0.000 | 1.6 s |\n| /post/7 | **94** | 1.5 s | 2.0 s | 88 ms | 0.123 | 1.6 s |');
});
