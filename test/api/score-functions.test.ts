// The score rules run inside the database (author counters, the ranking refresh): as functions
// registered from TypeScript on SQLite, as SQL functions on PostgreSQL (migrations/postgres/
// 0001_init.ts). Each must give exactly what the TypeScript rule gives, halves and all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { averageRating, computeMojo } from '../../server/mojo/mojo.formula.ts';
import { rankScore } from '../../server/ranks/ranks.score.ts';
import { startTestServer, type TestServer } from '../helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

const count = fc.integer({ min: 0, max: 100_000 });
const RUNS = { numRuns: 300 };

test('mojo_score is computeMojo', async () => {
  await fc.assert(fc.asyncProperty(count, count, count, count, count, async (ratingsCount, extra, comments, visits, followers) => {
    // A sum of ratings lies between 1 and 5 per rating.
    const ratingsSum = ratingsCount + (extra % (4 * ratingsCount + 1));
    const { rows: [row] } = await sql<{ mojo: number }>`SELECT mojo_score(${ratingsCount}, ${ratingsSum}, ${comments},
      ${visits}, ${followers}) AS mojo`.execute(server.ctx.db);
    assert.equal(row!.mojo, computeMojo({ ratingsCount, ratingsSum, comments, visits, followers }));
  }), RUNS);
});

test('mean_rating is averageRating, halves rounded up as Math.round does', async () => {
  // 107/40 = 2.675 and 1/8 = 0.125 are halves at the second decimal; 10/3 never ends.
  const cases: Array<[number, number]> = [[0, 0], [5, 1], [107, 40], [1, 8], [10, 3], [-1, 200],
    ...fc.sample(fc.tuple(count, fc.integer({ min: 1, max: 1000 })), 200)];
  for (const [sum, n] of cases) {
    const { rows: [row] } = await sql<{ mean: number }>`SELECT mean_rating(${sum}, ${n}) AS mean`.execute(server.ctx.db);
    assert.equal(row!.mean, averageRating(sum, n), `mean_rating(${sum}, ${n})`);
  }
});

test('rank_score is rankScore, for posts of any age', async () => {
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  await fc.assert(fc.asyncProperty(count, count, count, count, fc.integer({ min: -3_600_000, max: 400 * 86_400_000 }),
    async (visits, ratingsCount, extra, comments, ageMs) => {
      const ratingsSum = ratingsCount + (extra % (4 * ratingsCount + 1));
      const createdAt = new Date(now - ageMs).toISOString();
      const { rows: [row] } = await sql<{ score: number }>`SELECT rank_score(${visits}, ${ratingsCount}, ${ratingsSum},
        ${comments}, ${createdAt}, ${now}) AS score`.execute(server.ctx.db);
      assert.equal(row!.score, rankScore({ visits, ratingsCount, ratingsSum, comments, createdAt }, now));
    }), RUNS);
});
