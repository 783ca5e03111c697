// argon2id password hashing; the cost comes from the configuration (tests make it cheap).
import argon2 from 'argon2';
import type { Config } from '../config.ts';

export function hashPassword(config: Config, password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...config.passwordHashing });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash never matches
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of one verification, so an unknown email answers as slowly as a known one. */
export async function verifyAgainstNothing(config: Config, password: string): Promise<false> {
  dummyHash ??= hashPassword(config, 'no user has this password');
  await verifyPassword(await dummyHash, password);
  return false;
}
