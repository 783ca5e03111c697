// Writes that touch two users' rows at the same moment (issue 27): on PostgreSQL, two
// transactions that lock the same rows in opposite orders deadlock, and one of them is cancelled
// after deadlock_timeout (a 500). Every such write takes its rows in ascending id order.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

const PAIRS = 12;
const ROUNDS = 6;

/** status → count, for the assertion's message. */
function tally(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

test('two users following (and unfollowing) each other at the same moment: no deadlock, counters right', async (t) => {
  const pairs: [TestUser, TestUser][] = [];
  for (let i = 0; i < PAIRS; i += 1) pairs.push([await createUser(server), await createUser(server)]);
  const statuses: number[] = [];
  const both = async (method: 'POST' | 'DELETE') => {
    const answers = await Promise.all(pairs.flatMap(([a, b]) => [
      server.api(method, `/api/follow/${b.id}`, { token: a.token }),
      server.api(method, `/api/follow/${a.id}`, { token: b.token }),
    ]));
    statuses.push(...answers.map((r) => r.status));
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    await both('POST');
    await both('DELETE');
  }
  await both('POST');
  t.diagnostic(`answers ${JSON.stringify(tally(statuses))}`);
  assert.deepEqual(tally(statuses), { 200: statuses.length });
  assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  const user = await server.ctx.db.selectFrom('users').select(['followers_count', 'following_count'])
    .where('id', '=', pairs[0]![0].id).executeTakeFirstOrThrow();
  assert.deepEqual(user, { followers_count: 1, following_count: 1 });
});
