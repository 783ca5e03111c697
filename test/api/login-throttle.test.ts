// Login and sign-up throttling over HTTP, RATE_LIMITS on (DESIGN.md, Edges). Several clients are
// simulated by binding 127.0.0.x loopback addresses (from-address.ts): the server keys on req.ip.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { apiFrom } from './from-address.ts';

const RETRY = /^Too many attempts\. Try again in (\d+) (seconds|minutes)\.$/;

let server: TestServer;

before(async () => { server = await startTestServer({ env: { RATE_LIMITS: 'on' } }); });
after(async () => { await server.stop(); });

const loginFrom = (address: string, email: string, password: string) =>
  apiFrom(address, server.url, 'POST', '/api/auth/login', { json: { email, password } });

function assertRetryLater(res: { status: number; body: any; headers: Headers }, unit: 'seconds' | 'minutes'): number {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  const match = RETRY.exec(res.body.detail);
  assert.ok(match, res.body.detail);
  assert.equal(match[2], unit);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(retryAfter > 0, 'Retry-After in seconds');
  return retryAfter;
}

describe('one account under attack', () => {
  let owner: TestUser;
  before(async () => { owner = await createUser(server); });

  test('the attacker\'s IP waits after 5 failures while the owner signs in from another IP', async () => {
    for (let i = 0; i < 5; i += 1) {
      assert.equal((await loginFrom('127.0.0.2', owner.email, `guess-${i}`)).status, 401);
    }
    const blocked = await loginFrom('127.0.0.2', owner.email, owner.password);
    const wait = assertRetryLater(blocked, 'seconds');
    assert.ok(wait <= 5, `first delay ${wait} s`);
    // The owner, from an address that never failed, gets in at once, again and again.
    for (let i = 0; i < 3; i += 1) {
      const ok = await loginFrom('127.0.0.3', owner.email.toUpperCase(), owner.password);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.user.id, owner.id);
    }
    assert.equal((await loginFrom('127.0.0.2', owner.email, 'guess-again')).status, 429, 'still held');
  });

  test('an owner who mistypes during the attack waits seconds, not a lockout', async () => {
    assert.equal((await loginFrom('127.0.0.4', owner.email, 'typo')).status, 401);
    const wait = assertRetryLater(await loginFrom('127.0.0.4', owner.email, owner.password), 'seconds');
    assert.ok(wait <= 5);
  });
});

test('a success clears that IP\'s failures on the account', async () => {
  const user = await createUser(server);
  for (let i = 0; i < 4; i += 1) assert.equal((await loginFrom('127.0.0.5', user.email, 'wrong-password')).status, 401);
  assert.equal((await loginFrom('127.0.0.5', user.email, user.password)).status, 200);
  for (let i = 0; i < 4; i += 1) assert.equal((await loginFrom('127.0.0.5', user.email, 'wrong-password')).status, 401);
  assert.equal((await loginFrom('127.0.0.5', user.email, user.password)).status, 200, 'four failures since the success');
});

test('one IP gets 25 failed logins in 5 minutes across accounts, then 429 for any account', async () => {
  const own = await createUser(server);
  for (let i = 0; i < 24; i += 1) {
    assert.equal((await loginFrom('127.0.0.6', `nobody${i}@example.com`, 'wrong-password')).status, 401);
  }
  // Signing in to one's own account does not buy more guesses.
  assert.equal((await loginFrom('127.0.0.6', own.email, own.password)).status, 200);
  assert.equal((await loginFrom('127.0.0.6', 'nobody24@example.com', 'wrong-password')).status, 401);
  assertRetryLater(await loginFrom('127.0.0.6', own.email, own.password), 'minutes');
  assert.equal((await loginFrom('127.0.0.7', own.email, own.password)).status, 200, 'other IPs are not affected');
});

test('parallel guesses from one IP cannot slip past the limit', async () => {
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    loginFrom('127.0.0.8', `parallel${i}@example.com`, 'wrong-password')));
  const statuses = answers.map((res) => res.status);
  assert.equal(statuses.filter((s) => s === 401).length, 25, statuses.join(' '));
  assert.equal(statuses.filter((s) => s === 429).length, 15);
});

test('registration is throttled per IP, "Email is already registered" probes included', async () => {
  const first = await apiFrom('127.0.0.9', server.url, 'POST', '/api/auth/register', {
    json: { username: 'prober', email: 'prober@example.com', password: 'secret1' },
  });
  assert.equal(first.status, 201);
  for (let i = 0; i < 19; i += 1) {
    const probe = await apiFrom('127.0.0.9', server.url, 'POST', '/api/auth/register', {
      json: { username: `probe${i}`, email: 'prober@example.com', password: 'secret1' },
    });
    assert.deepEqual([probe.status, probe.body], [409, { detail: 'Email is already registered' }]);
  }
  const limited = await apiFrom('127.0.0.9', server.url, 'POST', '/api/auth/register', {
    json: { username: 'probe19', email: 'target@example.com', password: 'secret1' },
  });
  assertRetryLater(limited, 'minutes');
  const elsewhere = await apiFrom('127.0.0.10', server.url, 'POST', '/api/auth/register', {
    json: { username: 'newcomer', email: 'newcomer@example.com', password: 'secret1' },
  });
  assert.equal(elsewhere.status, 201);
});

test('RATE_LIMITS=off throttles no login', async () => {
  const open = await startTestServer();
  try {
    const user = await createUser(open);
    for (let i = 0; i < 30; i += 1) {
      assert.equal((await open.api('POST', '/api/auth/login', { json: { email: user.email, password: 'wrong-password' } })).status, 401);
    }
    assert.equal((await open.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } })).status, 200);
  } finally {
    await open.stop();
  }
});
