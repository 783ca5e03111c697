// The ledger's arithmetic (shared/mojo.ts, docs/mojo.md): deltas in hundredths, each the mojo
// after less the mojo before as the formula gives them, add up to the final mojo exactly, over
// long random histories where sums of the decimal deltas would drift.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { computeMojo, type AuthorStats } from '../../server/mojo/mojo.formula.ts';
import { formatMojoDelta, fromHundredths, mojoCauseWords, toHundredths, MOJO_CAUSES } from '../../shared/mojo.ts';
import { mojoChartSummary, mojoSeries } from '../../client/components/reader/MojoChart.tsx';

test('hundredths: two-decimal mojos convert exactly, negative ones too', () => {
  for (const [mojo, h] of [[0.29, 29], [2.3, 230], [-2.3, -230], [0.07, 7], [66.01, 6601], [-0.01, -1], [0, 0]] as const) {
    assert.equal(toHundredths(mojo), h);
    assert.equal(fromHundredths(h), mojo);
  }
});

test('random histories: the deltas add up to the mojo, where a sum of decimals would not', () => {
  const change = fc.record({
    ratingsCount: fc.integer({ min: -1, max: 1 }), ratingsSum: fc.integer({ min: -5, max: 5 }),
    comments: fc.integer({ min: -1, max: 1 }), visits: fc.integer({ min: 0, max: 30 }), followers: fc.integer({ min: -1, max: 1 }),
  });
  let floatDrifted = false;
  fc.assert(fc.property(fc.array(change, { minLength: 1, maxLength: 400 }), (changes) => {
    const stats: AuthorStats = { ratingsCount: 0, ratingsSum: 0, comments: 0, visits: 0, followers: 0 };
    let sum = 0;
    let floatSum = 0;
    for (const c of changes) {
      const before = computeMojo(stats);
      for (const key of Object.keys(c) as (keyof AuthorStats)[]) stats[key] = Math.max(0, stats[key] + c[key]);
      const after = computeMojo(stats);
      const delta = toHundredths(after) - toHundredths(before);
      sum += delta;
      floatSum += fromHundredths(delta);
      assert.equal(sum, toHundredths(after), 'each mojo_after is the sum so far');
    }
    if (floatSum !== computeMojo(stats)) floatDrifted = true;
    assert.equal(fromHundredths(sum), computeMojo(stats));
  }), { numRuns: 300, seed: 17 });
  assert.ok(floatDrifted, 'summing the decimal deltas drifts somewhere: the reason for hundredths');
});

test('every cause has words; a post_removed rise reads as back from the archive; deltas carry a sign', () => {
  for (const cause of MOJO_CAUSES) assert.ok(mojoCauseWords(cause, -1).length > 0);
  assert.equal(mojoCauseWords('post_removed', -3), 'Article archived or deleted');
  assert.equal(mojoCauseWords('post_removed', 3), 'Article back from the archive');
  assert.deepEqual([formatMojoDelta(2.08), formatMojoDelta(-0.1), formatMojoDelta(0)], ['+2.08', '−0.10', '+0.00']);
});

test('the chart\'s series starts before the oldest event held and follows each mojo_after', () => {
  const e = (delta: number, mojo_after: number) => ({ id: 0, at: '', delta, mojo_after, cause: 'visits' as const,
    post_id: null, post_title: null, actor_id: null, actor_username: null });
  // Newest first, as the API answers; the oldest held starts at 9.5 − 2.5.
  assert.deepEqual(mojoSeries([e(-1, 11.5), e(3, 12.5), e(2.5, 9.5)]), [7, 9.5, 12.5, 11.5]);
  assert.deepEqual(mojoSeries([]), []);
  assert.equal(mojoChartSummary([7, 9.5, 12.5, 11.5]), 'Mojo went from 7.00 to 11.50 over 3 changes; lowest 7.00, highest 12.50.');
  assert.equal(mojoChartSummary([]), 'No change of mojo yet.');
});
