// The jobs table's queues (migrations/0027_job_queues.ts): each runner takes its own queue's jobs
// only, so that a backlog in one (thousands of deliveries, a server that takes its time) holds
// nothing of the other back; and a runner with `concurrency` runs that many of a batch at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { enqueueJob } from '../../server/jobs/jobs.service.ts';
import { startJobRunner } from '../../server/jobs/jobs.runner.ts';
import { sqlNumber, startTestServer, type TestServer } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

/** A handler that runs until let go, counting how many of its jobs run at once. */
function heldJobs() {
  const waiting: (() => void)[] = [];
  const seen = { running: 0, most: 0, done: 0 };
  return {
    seen,
    release: () => { for (const go of waiting.splice(0)) go(); },
    handler: async () => {
      seen.most = Math.max(seen.most, ++seen.running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      seen.running--;
      seen.done++;
    },
  };
}

test('a job of one queue runs while the other queue\'s jobs are all under way, and only its own runner takes it', async () => {
  const slow = heldJobs();
  const quick: number[] = [];
  for (let i = 0; i < 12; i++) await enqueueJob(server.ctx.db, { kind: 'test.slow', queue: 'test-slow', payload: { i } });
  await enqueueJob(server.ctx.db, { kind: 'test.quick', queue: 'test-quick', payload: { n: 1 } });
  const slowRunner = startJobRunner(server.ctx, { 'test.slow': slow.handler }, { queue: 'test-slow', concurrency: 4, pollMs: 50 });
  const quickRunner = startJobRunner(server.ctx, { 'test.quick': async (payload: { n: number }) => { quick.push(payload.n); } }, { queue: 'test-quick', pollMs: 50 });
  try {
    await waitFor(() => quick.length === 1 && slow.seen.running === 4, { what: 'the quick job done, four slow ones under way' });
    assert.equal(slow.seen.done, 0, 'none of the slow jobs has ended');
    assert.equal(await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind = 'test.quick'"), 0, 'the quick job is done and gone');
    // Let them go, four at a time: never more than four at once.
    await waitFor(() => {
      slow.release();
      return slow.seen.done === 12;
    }, { what: 'the twelve slow jobs let go' });
    assert.equal(slow.seen.most, 4);
    await waitFor(async () => await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM jobs WHERE kind = 'test.slow'") === 0, { what: 'the slow jobs gone' });
  } finally {
    slow.release();
    await Promise.all([slowRunner.stop(), quickRunner.stop()]);
  }
});

test('a runner started as the leader takes back its own queue\'s abandoned jobs, not another queue\'s', async () => {
  const db = server.ctx.db;
  const at = new Date().toISOString();
  const later = new Date(Date.now() + 3_600_000).toISOString();
  await db.insertInto('jobs').values([
    { kind: 'test.mine', queue: 'test-mine', payload: '{}', state: 'running', locked_until: later, run_at: at, attempts: 1, created_at: at },
    { kind: 'test.theirs', queue: 'test-theirs', payload: '{}', state: 'running', locked_until: later, run_at: at, attempts: 1, created_at: at },
  ]).execute();
  let ran = 0;
  const runner = startJobRunner(server.ctx, { 'test.mine': async () => { ran++; } }, { queue: 'test-mine', pollMs: 50 });
  try {
    await waitFor(() => ran === 1, { what: 'the abandoned job of its queue run again' });
    assert.equal(await sqlNumber(db, "SELECT COUNT(*) FROM jobs WHERE kind = 'test.theirs' AND state = 'running'"), 1, 'the other queue\'s is left to its runner');
  } finally {
    await runner.stop();
    await db.deleteFrom('jobs').where('kind', '=', 'test.theirs').execute();
  }
});
