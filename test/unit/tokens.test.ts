import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Config } from '../../server/config.ts';
import { readAccessToken, signAccessToken } from '../../server/auth/tokens.ts';

const config = (jwtSecret: string) => ({ jwtSecret, tokenTtlSeconds: 60 }) as Config;
const user = { id: 7, token_version: 3 };

/** The claims that do not depend on the moment or the token's bytes. */
function stable(claims: ReturnType<typeof readAccessToken>) {
  return claims && { userId: claims.userId, tokenVersion: claims.tokenVersion };
}

test('a token reads back its claims, and only under the secret that signed it', () => {
  const before = Date.now();
  const token = signAccessToken(config('first-secret-of-at-least-32-chars!!'), user);
  const claims = readAccessToken(config('first-secret-of-at-least-32-chars!!'), token);
  assert.deepEqual(stable(claims), { userId: 7, tokenVersion: 3 });
  // JWT expiries are whole seconds.
  assert.ok(claims!.expiresAt > before + 58_000 && claims!.expiresAt <= Date.now() + 60_000, String(claims!.expiresAt));
  assert.match(claims!.tokenId, /^[\w-]{43}$/);
  assert.ok(!token.includes(claims!.tokenId), 'a hash, not a part of the token');
  // Verified once under the first secret; another secret must still refuse it.
  assert.equal(readAccessToken(config('other-secret-of-at-least-32-chars!!'), token), undefined);
  assert.equal(readAccessToken(config('first-secret-of-at-least-32-chars!!'), `${token}x`), undefined);
});

test('a token verified earlier is refused once it expires', (t) => {
  const secret = config('expiry-secret-of-at-least-32-chars!');
  const token = signAccessToken(secret, user);
  assert.deepEqual(stable(readAccessToken(secret, token)), { userId: 7, tokenVersion: 3 });
  const later = Date.now() + 61_000;
  t.mock.method(Date, 'now', () => later);
  assert.equal(readAccessToken(secret, token), undefined);
});

test('two tokens of one user signed in the same second have two ids; one token always the same', () => {
  const secret = config('ids-secret-of-at-least-32-characters');
  const first = signAccessToken(secret, user);
  const second = signAccessToken(secret, user);
  assert.notEqual(first, second);
  assert.notEqual(readAccessToken(secret, first)!.tokenId, readAccessToken(secret, second)!.tokenId);
  assert.equal(readAccessToken(secret, first)!.tokenId, readAccessToken(secret, first)!.tokenId);
});
