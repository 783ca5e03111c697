// The login throttle several instances share, on rate-limiter-flexible's memory counters and a
// mocked clock: the rules of login-throttle.test.ts, counted in fixed windows. Over PostgreSQL and
// two instances: test/api/login-throttle.test.ts (under test:pg) and test/api/instances.test.ts.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { SharedLoginThrottle } from '../../server/auth/shared-login-throttle.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function throttle(t: TestContext) {
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 0 });
  const guard = new SharedLoginThrottle((name, seconds) => new RateLimiterMemory({ keyPrefix: name, duration: seconds, points: 0 }));
  const fail = async (ip: string, account: string) => assert.equal(await guard.begin(ip, account), 0, `${ip} on ${account} at ${Date.now()}`);
  const succeed = async (ip: string, account: string) => {
    assert.equal(await guard.begin(ip, account), 0);
    await guard.succeeded(ip, account);
  };
  return { guard, fail, succeed, tick: (ms: number) => t.mock.timers.tick(ms) };
}

test('an IP gets 25 failures in 5 minutes from its first, whatever the accounts', async (t) => {
  const { guard, fail, tick } = throttle(t);
  for (let i = 0; i < 25; i += 1) {
    await fail('10.0.0.1', `victim${i}@x.io`);
    tick(SECOND);
  }
  tick(5 * SECOND);
  assert.equal(await guard.begin('10.0.0.1', 'fresh@x.io'), 5 * MINUTE - 30 * SECOND);
  assert.equal(await guard.begin('10.0.0.2', 'fresh@x.io'), 0, 'another IP is not affected');
  tick(5 * MINUTE - 30 * SECOND - 1);
  assert.equal(await guard.begin('10.0.0.1', 'fresh@x.io'), 1, 'refused attempts did not count');
  tick(1);
  assert.equal(await guard.begin('10.0.0.1', 'fresh@x.io'), 0, 'a new window');
});

test('signing in to one\'s own account does not buy an IP more guesses', async (t) => {
  const { guard, fail, succeed } = throttle(t);
  for (let i = 0; i < 24; i += 1) await fail('10.0.0.1', `victim${i}@x.io`);
  await succeed('10.0.0.1', 'attacker@x.io');
  await fail('10.0.0.1', 'victim24@x.io');
  assert.ok(await guard.begin('10.0.0.1', 'victim25@x.io') > 0);
});

test('after 5 failures on an account the IPs that failed wait 5 s, doubling up to 15 minutes; a clean IP goes at once', async (t) => {
  const { guard, fail, succeed, tick } = throttle(t);
  for (let i = 0; i < 5; i += 1) await fail('10.0.0.1', 'ana@x.io');
  const waits: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const wait = await guard.begin('10.0.0.1', 'ana@x.io');
    waits.push(wait / SECOND);
    await succeed('10.0.0.9', 'ana@x.io'); // the owner on another IP is never delayed
    tick(wait);
    await fail('10.0.0.1', 'ana@x.io');
  }
  assert.deepEqual(waits, [5, 10, 20, 40, 80, 160, 320, 640, 900, 900]);
  tick(900 * SECOND);
  assert.equal(Date.now(), 3975 * SECOND);
  assert.equal(await guard.begin('10.0.0.1', 'ana@x.io'), 0, 'the hour from the first failure is over: counts start again');
});

test('many IPs guessing one account: each waits after its own failure, and no one else does', async (t) => {
  const { guard, fail, succeed, tick } = throttle(t);
  for (let i = 1; i <= 5; i += 1) await fail(`10.0.1.${i}`, 'ana@x.io');
  for (let i = 1; i <= 5; i += 1) assert.equal(await guard.begin(`10.0.1.${i}`, 'ana@x.io'), 5 * SECOND);
  await fail('10.0.1.6', 'ana@x.io'); // a new guessing IP gets one try
  assert.equal(await guard.begin('10.0.1.6', 'ana@x.io'), 5 * SECOND);
  // The owner mistypes once during the attack: five seconds, then in.
  await fail('192.168.1.7', 'ana@x.io');
  assert.equal(await guard.begin('192.168.1.7', 'ana@x.io'), 5 * SECOND);
  tick(5 * SECOND);
  await succeed('192.168.1.7', 'ana@x.io');
  assert.equal(await guard.begin('192.168.1.7', 'ana@x.io'), 0);
  await guard.succeeded('192.168.1.7', 'ana@x.io');
  assert.equal(await guard.begin('10.0.1.1', 'ana@x.io'), 0, 'the attackers\' own delays ran out too');
  assert.ok(await guard.begin('10.0.1.1', 'ana@x.io') > 0, 'and grew with their next failure');
});

test('a success forgets that IP\'s failures on that account', async (t) => {
  const { guard, fail, succeed } = throttle(t);
  for (let i = 0; i < 4; i += 1) await fail('10.0.0.1', 'ana@x.io');
  await succeed('10.0.0.1', 'ana@x.io');
  for (let i = 0; i < 4; i += 1) await fail('10.0.0.1', 'ana@x.io');
  assert.equal(await guard.begin('10.0.0.1', 'ana@x.io'), 0, 'four failures since the success: no delay yet');
});

test('parallel guesses count before their passwords are checked, and only one goes when a delay ends', async (t) => {
  const { guard, tick } = throttle(t);
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => guard.begin('10.0.0.1', `victim${i}@x.io`)));
  assert.equal(answers.filter((wait) => wait === 0).length, 25);
  const onOneAccount = await Promise.all(Array.from({ length: 10 }, () => guard.begin('10.0.0.2', 'ana@x.io')));
  assert.equal(onOneAccount.filter((wait) => wait === 0).length, 5);
  tick(5 * SECOND);
  const afterTheDelay = await Promise.all(Array.from({ length: 10 }, () => guard.begin('10.0.0.2', 'ana@x.io')));
  assert.equal(afterTheDelay.filter((wait) => wait === 0).length, 1, afterTheDelay.join(' '));
  assert.ok(afterTheDelay.every((wait) => wait === 0 || wait >= 10 * SECOND), afterTheDelay.join(' '));
});

test('failures are forgotten: an IP\'s after its window, an account\'s an hour after its first', async (t) => {
  const { guard, fail, tick } = throttle(t);
  for (let i = 0; i < 5; i += 1) await fail(`10.0.0.${i}`, 'ana@x.io');
  assert.equal(await guard.begin('10.0.0.0', 'ana@x.io'), 5 * SECOND);
  tick(60 * MINUTE);
  assert.equal(await guard.begin('10.0.0.0', 'ana@x.io'), 0);
  for (let i = 0; i < 4; i += 1) await fail('10.0.0.0', 'ana@x.io');
  assert.equal(await guard.begin('10.0.0.0', 'ana@x.io'), 5 * SECOND, 'five failures in the new hour');
});
