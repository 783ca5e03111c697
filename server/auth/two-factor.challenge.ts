// The challenge a login with two-factor sign-in on answers instead of a token: proof, for five
// minutes, that this user's password was just checked. It is signed with a key of its own, derived
// from JWT_SECRET, so it can never pass for an access token (nor one for it), and it names the
// password and token version it was given under: a password changed or every session ended since
// voids it. Nothing is stored: any instance can read it.
import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../config.ts';
import type { UserRow } from '../schema.ts';

const CHALLENGE_TTL_SECONDS = 5 * 60;
const AUDIENCE = 'two-factor-challenge';

const keys = new Map<string, KeyObject>();

function challengeKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(createHmac('sha256', secret).update('beatnik two-factor challenge').digest());
    keys.set(secret, key);
  }
  return key;
}

/** Binds a challenge to the password that passed and to the sessions as they were. */
function fingerprint(user: Pick<UserRow, 'password_hash' | 'token_version'>): string {
  return createHash('sha256').update(`${user.token_version}:${user.password_hash}`).digest('base64url').slice(0, 22);
}

/** `issuedAt` (seconds since the epoch) is now but in tests of an expired challenge. */
export function signChallenge(
  config: Config, user: Pick<UserRow, 'id' | 'password_hash' | 'token_version'>, issuedAt = Math.floor(Date.now() / 1000),
): string {
  return jwt.sign({ pw: fingerprint(user), iat: issuedAt }, challengeKey(config.jwtSecret), {
    algorithm: 'HS256', expiresIn: CHALLENGE_TTL_SECONDS, subject: String(user.id), audience: AUDIENCE,
    jwtid: randomBytes(9).toString('base64url'),
  });
}

/** The user id a live, genuine challenge names, with its fingerprint; undefined for anything else. */
export function readChallenge(config: Config, challenge: string): { userId: number; fingerprint: string } | undefined {
  try {
    const payload = jwt.verify(challenge, challengeKey(config.jwtSecret), { algorithms: ['HS256'], audience: AUDIENCE });
    if (typeof payload !== 'object' || typeof payload.pw !== 'string') return undefined;
    const userId = Number(payload.sub);
    return Number.isSafeInteger(userId) && userId > 0 ? { userId, fingerprint: payload.pw } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the challenge was given under the user's current password and sessions. */
export function challengeFits(user: Pick<UserRow, 'password_hash' | 'token_version'>, given: string): boolean {
  const expected = Buffer.from(fingerprint(user));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
