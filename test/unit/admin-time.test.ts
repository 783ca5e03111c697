import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTimeRemaining, secondsUntil } from '../../server/admin/admin.time.ts';
import { banDays } from '../../server/admin/admin.service.ts';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

test('time remaining: the two largest units, rounded down', () => {
  const cases: Array<[number | null, string]> = [
    [null, 'Permanent'],
    [0, 'Expired'],
    [-5, 'Expired'],
    [Number.NaN, 'Expired'],
    [30, 'less than a minute'],
    [MINUTE, '1 minute'],
    [2 * MINUTE + 59, '2 minutes'],
    [HOUR, '1 hour'],
    [HOUR + MINUTE, '1 hour, 1 minute'],
    [5 * HOUR + 30 * MINUTE + 20, '5 hours, 30 minutes'],
    [DAY, '1 day'],
    [DAY + 59 * MINUTE, '1 day'],
    [3 * DAY + 4 * HOUR + 59 * MINUTE, '3 days, 4 hours'],
    [2 * DAY + 5 * MINUTE, '2 days'],
    [365 * DAY, '365 days'],
  ];
  for (const [seconds, text] of cases) assert.equal(formatTimeRemaining(seconds), text, String(seconds));
});

test('seconds until an ISO time: null for none, never negative', () => {
  const now = new Date('2026-06-01T00:00:00.000Z');
  assert.equal(secondsUntil(null, now), null);
  assert.equal(secondsUntil('2026-06-02T01:00:00.500Z', now), DAY + HOUR);
  assert.equal(secondsUntil('2026-05-01T00:00:00.000Z', now), 0);
});

test('ban length in whole days, as the admin screen’s days field', () => {
  const now = new Date('2026-06-01T00:00:00.000Z');
  const at = (ms: number) => new Date(now.getTime() + ms);
  assert.equal(banDays(at(7 * DAY * 1000 - 2000), now), 7);
  assert.equal(banDays(at(23.5 * HOUR * 1000), now), 1);
  assert.equal(banDays(at(365.6 * DAY * 1000), now), 365);
});
