// The background jobs' retries (DESIGN.md, Mail): a minute after the first failure, doubling up to
// six hours between tries, the last at three days after the job was queued.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RETRIES, nextTry } from '../../server/jobs/jobs.runner.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const queued = new Date('2026-11-02T08:00:00.000Z');
const job = (attempts: number) => ({ attempts, created_at: queued.toISOString() });
const delayAfter = (attempts: number, now = queued) => nextTry(job(attempts), now, RETRIES)!.getTime() - now.getTime();

test('waits a minute after the first failure, then doubles', () => {
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => delayAfter(n)), [1, 2, 4, 8, 16].map((m) => m * MINUTE));
});

test('never waits more than six hours between tries', () => {
  assert.equal(delayAfter(9), 256 * MINUTE);
  assert.equal(delayAfter(10), 6 * HOUR, '512 minutes, held to six hours');
  assert.equal(delayAfter(60), 6 * HOUR);
});

test('tries a last time at three days after the job was queued, then gives up', () => {
  const deadline = queued.getTime() + 3 * 24 * HOUR;
  const almost = new Date(deadline - 7 * HOUR);
  assert.equal(nextTry(job(20), almost, RETRIES)!.getTime(), almost.getTime() + 6 * HOUR, 'six hours later is within the three days');
  const late = new Date(deadline - 5 * HOUR);
  assert.equal(nextTry(job(20), late, RETRIES)!.getTime(), deadline, 'the last try, at the deadline');
  assert.equal(nextTry(job(21), new Date(deadline), RETRIES), undefined);
});
