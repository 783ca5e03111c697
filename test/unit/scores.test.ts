// The pure score rules: the ranking score with its age decay (docs/ranking.md) and the mojo
// formula (docs/mojo.md), checked against the documented examples and the promises they make.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { averageRating, computeMojo, type AuthorStats } from '../../server/mojo/mojo.formula.ts';
import { rankParts, rankScore, scoreOfParts, type RankInput } from '../../server/ranks/ranks.score.ts';
import { bayesianRating } from '../../server/mojo/mojo.formula.ts';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();
const NOBODY: AuthorStats = { ratingsCount: 0, ratingsSum: 0, comments: 0, visits: 0, followers: 0 };

test('mojo: the examples of docs/mojo.md', () => {
  const cases: Array<[string, Partial<AuthorStats>, number]> = [
    ['a new author', {}, 0],
    ['one 5-star rating', { ratingsCount: 1, ratingsSum: 5 }, 2.31],
    ['one 1-star rating', { ratingsCount: 1, ratingsSum: 1 }, -2.31],
    ['100 ratings averaging 4.5 (≈ 66)', { ratingsCount: 100, ratingsSum: 450 }, 65.93],
    ['50 comments', { comments: 50 }, 7.86],
    ['1,000 visits', { visits: 1000 }, 4.62],
    ['20 followers', { followers: 20 }, 9.13],
  ];
  for (const [name, stats, mojo] of cases) assert.equal(computeMojo({ ...NOBODY, ...stats }), mojo, name);
});

const stats = fc.record({
  ratingsCount: fc.integer({ min: 0, max: 100_000 }),
  averageTimesTen: fc.integer({ min: 10, max: 50 }),
  comments: fc.integer({ min: 0, max: 100_000 }),
  visits: fc.integer({ min: 0, max: 10_000_000 }),
  followers: fc.integer({ min: 0, max: 100_000 }),
}).map(({ averageTimesTen, ...rest }) => ({ ...rest, ratingsSum: Math.round((rest.ratingsCount * averageTimesTen) / 10) }));

test('mojo: a good rating raises it, a bad one lowers it, and one reader moves it little', () => {
  fc.assert(fc.property(stats, (s) => {
    const before = computeMojo(s);
    const good = computeMojo({ ...s, ratingsCount: s.ratingsCount + 1, ratingsSum: s.ratingsSum + 5 });
    const bad = computeMojo({ ...s, ratingsCount: s.ratingsCount + 1, ratingsSum: s.ratingsSum + 1 });
    assert.ok(good >= before && bad <= before, JSON.stringify(s));
    // At most about 4 points, whatever the author had before (4.12 at worst: a third 1-star rating after two).
    for (const after of [good, bad]) assert.ok(Math.abs(after - before) <= 4.2, `one rating moved mojo by ${after - before}`);
  }), { numRuns: 2_000 });
});

test('mojo: more comments, visits or followers never lower it', () => {
  fc.assert(fc.property(stats, fc.constantFrom('comments', 'visits', 'followers') as fc.Arbitrary<'comments' | 'visits' | 'followers'>, (s, field) => {
    assert.ok(computeMojo({ ...s, [field]: s[field] + 1 }) >= computeMojo(s));
  }), { numRuns: 1_000 });
});

test('average rating: two decimals, 0 without ratings', () => {
  assert.equal(averageRating(0, 0), 0);
  assert.equal(averageRating(14, 3), 4.67);
  assert.equal(averageRating(5, 1), 5);
});

const fresh: RankInput = { visits: 0, ratingsCount: 0, ratingsSum: 0, comments: 0, createdAt: daysAgo(0) };

test('ranking score: recomputed by hand from the parts of docs/ranking.md', () => {
  const cases: Array<[string, Partial<RankInput>, number]> = [
    ['a fresh post nobody read', {}, 1],
    ['a fresh post with 10 visits', { visits: 10 }, 1 + Math.log1p(10)],
    ['a fresh post with 3 comments', { comments: 3 }, 1 + 2 * Math.log1p(3)],
    ['two neutral ratings weigh by count only', { ratingsCount: 2, ratingsSum: 6 }, 1 + Math.log1p(2)],
    ['a day old, nothing else', { createdAt: daysAgo(1) }, 1 / 2 ** 0.8],
    ['a week old with visits, comments and good ratings',
      { visits: 100, comments: 4, ratingsCount: 5, ratingsSum: 25, createdAt: daysAgo(7) },
      (1 + Math.log1p(100) + 2 * Math.log1p(4) + Math.log1p(5) * (1 + 2 * ((25 + 15) / 10 - 3))) / 8 ** 0.8],
  ];
  for (const [name, input, score] of cases) {
    assert.equal(rankScore({ ...fresh, ...input }, NOW), Math.round(score * 1e6) / 1e6, name);
  }
});

test('ranking score: a post published in the future counts as fresh, and bad ratings cannot make it negative', () => {
  assert.equal(rankScore({ ...fresh, createdAt: new Date(NOW + DAY).toISOString() }, NOW), 1);
  assert.equal(rankScore({ ...fresh, ratingsCount: 1000, ratingsSum: 1000 }, NOW), 0);
});

const post = fc.record({
  visits: fc.integer({ min: 0, max: 1_000_000 }),
  ratingsCount: fc.integer({ min: 0, max: 10_000 }),
  comments: fc.integer({ min: 0, max: 10_000 }),
  ageHours: fc.integer({ min: 0, max: 24 * 3650 }),
}).map(({ ageHours, ...rest }) => ({ ...rest, ratingsSum: rest.ratingsCount * 4, createdAt: new Date(NOW - ageHours * 3_600_000).toISOString() }));

test('ranking score: decays with age, grows with visits and comments', () => {
  fc.assert(fc.property(post, fc.integer({ min: 1, max: 1000 }), (p, hours) => {
    const score = rankScore(p, NOW);
    assert.ok(score >= 0);
    assert.ok(rankScore(p, NOW + hours * 3_600_000) <= score, 'older never ranks higher');
    assert.ok(rankScore({ ...p, visits: p.visits + hours }, NOW) >= score);
    assert.ok(rankScore({ ...p, comments: p.comments + 1 }, NOW) >= score);
  }), { numRuns: 2_000 });
});

test('ranking score: of two equal posts the newer ranks higher', () => {
  fc.assert(fc.property(post, fc.integer({ min: 1, max: 365 }), (p, days) => {
    const older = { ...p, createdAt: new Date(Date.parse(p.createdAt) - days * DAY).toISOString() };
    const score = rankScore(p, NOW);
    if (score > 0) assert.ok(score > rankScore(older, NOW), `${score} vs ${rankScore(older, NOW)}`);
  }), { numRuns: 1_000 });
});

test('ranking parts: docs/ranking.md\'s worked example, and every score recomputed from its parts', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  const input = { visits: 9, ratingsCount: 4, ratingsSum: 18, comments: 2, createdAt: '2026-11-25T00:00:00.000Z' };
  const parts = rankParts(input, now);
  const six = (n: number) => Math.round(n * 1e6) / 1e6;
  assert.deepEqual([six(parts.visits), six(parts.comments), six(parts.ratings), six(parts.decay), parts.ageHours],
    [2.302585, 2.197225, 3.755355, 0.48045, 36]);
  // By hand, as the doc writes it: score = max(1 + visits + ratings + comments, 0) × decay.
  const byHand = (1 + Math.log(10) + Math.log(5) * (1 + 2 * (33 / 9 - 3)) + 2 * Math.log(3)) / Math.pow(2.5, 0.8);
  assert.equal(rankScore(input, now), Math.round(byHand * 1e6) / 1e6);
  assert.equal(rankScore(input, now), 4.446642);
  for (const [visits, ratingsCount, ratingsSum, comments, days] of [[0, 0, 0, 0, 0], [500, 40, 190, 12, 3], [3, 30, 30, 0, 400], [1e6, 1, 5, 900, 0.01]]) {
    const post = { visits: visits!, ratingsCount: ratingsCount!, ratingsSum: ratingsSum!, comments: comments!, createdAt: new Date(now - days! * 86_400_000).toISOString() };
    assert.equal(scoreOfParts(rankParts(post, now)), rankScore(post, now));
  }
});

test('bayesian rating: (5·m + sum) / (5 + n); one 5★ loses to twenty averaging 4.5 at a usual m', () => {
  assert.equal(bayesianRating(0, 0, 3), 3, 'nothing rated: m itself');
  assert.equal(bayesianRating(5, 1, 3), 3.3333);
  assert.equal(bayesianRating(18, 4, 3.6), 4);
  assert.ok(bayesianRating(90, 20, 3.6) > bayesianRating(5, 1, 3.6));
  assert.ok(bayesianRating(90, 20, 3) > bayesianRating(5, 1, 3));
});
