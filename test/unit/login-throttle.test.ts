// The login throttle on a fake clock: limits, delays, what a success clears, bounded memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOGIN_LIMITS, LoginThrottle } from '../../server/auth/login-throttle.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function throttle(limits = LOGIN_LIMITS) {
  const clock = { now: 0 };
  const t = new LoginThrottle(limits, () => clock.now);
  /** One wrong password: asserts it was allowed. */
  const fail = (ip: string, account: string) => assert.equal(t.begin(ip, account), 0, `${ip} on ${account} at ${clock.now}`);
  const succeed = (ip: string, account: string) => {
    assert.equal(t.begin(ip, account), 0);
    t.succeeded(ip, account);
  };
  return { t, clock, fail, succeed };
}

test('an IP gets 25 failures in any 5 minutes, whatever the accounts, then waits for the oldest to expire', () => {
  const { t, clock, fail } = throttle();
  for (let i = 0; i < 25; i += 1) {
    clock.now = i * SECOND;
    fail('10.0.0.1', `victim${i}@x.io`);
  }
  clock.now = 30 * SECOND;
  assert.equal(t.begin('10.0.0.1', 'fresh@x.io'), 5 * MINUTE - 30 * SECOND);
  assert.equal(t.begin('10.0.0.2', 'fresh@x.io'), 0, 'another IP is not affected');
  clock.now = 5 * MINUTE - 1;
  assert.equal(t.begin('10.0.0.1', 'fresh@x.io'), 1, 'still 25 inside the window');
  clock.now = 5 * MINUTE;
  assert.equal(t.begin('10.0.0.1', 'fresh@x.io'), 0, 'the oldest failure has left the window');
  assert.equal(t.begin('10.0.0.1', 'fresh@x.io'), SECOND, 'and the new one took its place');
});

test('signing in to one\'s own account does not buy an IP more guesses', () => {
  const { t, fail, succeed } = throttle();
  for (let i = 0; i < 24; i += 1) fail('10.0.0.1', `victim${i}@x.io`);
  succeed('10.0.0.1', 'attacker@x.io');
  fail('10.0.0.1', 'victim24@x.io');
  assert.ok(t.begin('10.0.0.1', 'victim25@x.io') > 0);
});

test('after 5 failures on an account the IPs that failed wait 5 s, doubling up to 15 minutes; a clean IP goes at once', () => {
  const { t, clock, fail, succeed } = throttle();
  for (let i = 0; i < 4; i += 1) fail('10.0.0.1', 'ana@x.io');
  fail('10.0.0.1', 'ana@x.io'); // the fifth failure is still answered at once
  const waits: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const wait = t.begin('10.0.0.1', 'ana@x.io');
    waits.push(wait / SECOND);
    succeed('10.0.0.9', 'ana@x.io'); // the owner on another IP is never delayed
    clock.now += wait;
    fail('10.0.0.1', 'ana@x.io');
  }
  assert.deepEqual(waits, [5, 10, 20, 40, 80, 160, 320, 640, 900, 900]);
});

test('many IPs guessing one account: each waits after its own failure, and no one else does', () => {
  const { t, clock, fail, succeed } = throttle();
  for (let i = 1; i <= 5; i += 1) fail(`10.0.1.${i}`, 'ana@x.io');
  for (let i = 1; i <= 5; i += 1) assert.equal(t.begin(`10.0.1.${i}`, 'ana@x.io'), 5 * SECOND);
  fail('10.0.1.6', 'ana@x.io'); // a new guessing IP gets one try
  assert.equal(t.begin('10.0.1.6', 'ana@x.io'), 5 * SECOND);
  // The owner mistypes once during the attack: five seconds, then in.
  fail('192.168.1.7', 'ana@x.io');
  assert.equal(t.begin('192.168.1.7', 'ana@x.io'), 5 * SECOND);
  clock.now += 5 * SECOND;
  succeed('192.168.1.7', 'ana@x.io');
  assert.equal(t.begin('192.168.1.7', 'ana@x.io'), 0);
  t.succeeded('192.168.1.7', 'ana@x.io');
  assert.ok(t.begin('10.0.1.1', 'ana@x.io') === 0, 'the attackers\' own delays ran out too');
  assert.ok(t.begin('10.0.1.1', 'ana@x.io') > 0, 'and grew with their next failure');
});

test('a success forgets that IP\'s failures on that account', () => {
  const { t, fail, succeed } = throttle();
  for (let i = 0; i < 4; i += 1) fail('10.0.0.1', 'ana@x.io');
  succeed('10.0.0.1', 'ana@x.io');
  for (let i = 0; i < 4; i += 1) fail('10.0.0.1', 'ana@x.io');
  assert.equal(t.begin('10.0.0.1', 'ana@x.io'), 0, 'four failures since the success: no delay yet');
});

test('parallel guesses count before their passwords are checked', () => {
  const { t } = throttle();
  const answers = Array.from({ length: 30 }, (_, i) => t.begin('10.0.0.1', `victim${i}@x.io`));
  assert.equal(answers.filter((wait) => wait === 0).length, 25);
  const onOneAccount = Array.from({ length: 10 }, () => t.begin('10.0.0.2', 'ana@x.io'));
  assert.equal(onOneAccount.filter((wait) => wait === 0).length, 5);
});

test('failures are forgotten: an IP after its window, an account an hour after its last failure', () => {
  const { t, clock, fail } = throttle();
  for (let i = 0; i < 5; i += 1) fail(`10.0.0.${i}`, 'ana@x.io');
  assert.deepEqual(t.sizes(), { ips: 5, accounts: 1, pairs: 5 });
  clock.now = 5 * MINUTE;
  assert.equal(t.begin('10.0.0.0', 'ana@x.io'), 0);
  assert.deepEqual(t.sizes(), { ips: 1, accounts: 1, pairs: 5 });
  clock.now = 5 * MINUTE + 60 * MINUTE;
  assert.equal(t.begin('10.0.0.1', 'bob@x.io'), 0);
  assert.deepEqual(t.sizes(), { ips: 1, accounts: 1, pairs: 1 });
});

test('memory stays bounded when an attacker rotates IPs and emails', () => {
  const { t, clock } = throttle();
  for (let i = 0; i < 25_000; i += 1) {
    clock.now = i; // all inside every window: only the size cap can keep the tables small
    t.begin(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `victim${i}@x.io`);
    t.begin('10.255.255.255', `victim${i}@x.io`);
  }
  const sizes = t.sizes();
  assert.ok(sizes.ips <= LOGIN_LIMITS.maxEntries && sizes.accounts <= LOGIN_LIMITS.maxEntries && sizes.pairs <= LOGIN_LIMITS.maxEntries,
    JSON.stringify(sizes));
  assert.ok(t.begin('10.255.255.255', 'victim@x.io') > 0, 'the busiest IP is still held');
});
