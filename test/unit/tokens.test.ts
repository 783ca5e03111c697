import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Config } from '../../server/config.ts';
import { readAccessToken, signAccessToken } from '../../server/auth/tokens.ts';

const config = (jwtSecret: string) => ({ jwtSecret, tokenTtlSeconds: 60 }) as Config;
const user = { id: 7, token_version: 3 };

test('a token reads back its claims, and only under the secret that signed it', () => {
  const token = signAccessToken(config('first-secret-of-at-least-32-chars!!'), user);
  assert.deepEqual(readAccessToken(config('first-secret-of-at-least-32-chars!!'), token), { userId: 7, tokenVersion: 3 });
  // Verified once under the first secret; another secret must still refuse it.
  assert.equal(readAccessToken(config('other-secret-of-at-least-32-chars!!'), token), undefined);
  assert.equal(readAccessToken(config('first-secret-of-at-least-32-chars!!'), `${token}x`), undefined);
});

test('a token verified earlier is refused once it expires', (t) => {
  const secret = config('expiry-secret-of-at-least-32-chars!');
  const token = signAccessToken(secret, user);
  assert.deepEqual(readAccessToken(secret, token), { userId: 7, tokenVersion: 3 });
  const later = Date.now() + 61_000;
  t.mock.method(Date, 'now', () => later);
  assert.equal(readAccessToken(secret, token), undefined);
});
