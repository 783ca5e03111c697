// Each local actor's key pairs (DESIGN.md: RSA for HTTP Signatures, Ed25519 for object proofs),
// made on first need and kept in the database as JWK.
import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import { nowIso } from '../db.ts';
import type { DB } from '../schema.ts';
import { findKeys, insertKeys, type StoredKeys } from './federation.repo.ts';

export async function actorKeyPairs(db: DB, userId: number): Promise<CryptoKeyPair[]> {
  let stored = await findKeys(db, userId);
  if (!stored) {
    await insertKeys(db, userId, await newKeys(), nowIso());
    stored = await findKeys(db, userId);
    if (!stored) return [];
  }
  return [
    { publicKey: await importJwk(JSON.parse(stored.rsa_public), 'public'), privateKey: await importJwk(JSON.parse(stored.rsa_private), 'private') },
    { publicKey: await importJwk(JSON.parse(stored.ed25519_public), 'public'), privateKey: await importJwk(JSON.parse(stored.ed25519_private), 'private') },
  ];
}

/**
 * RSA at 2048 bits, as Mastodon's keys are: Fedify's own generator makes 4096-bit ones, which take
 * seconds of CPU each here, on a user's first federated request.
 */
async function newRsaKeyPair(): Promise<CryptoKeyPair> {
  return await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true, ['sign', 'verify'],
  );
}

async function newKeys(): Promise<StoredKeys> {
  const rsa = await newRsaKeyPair();
  const ed25519 = await generateCryptoKeyPair('Ed25519');
  return {
    rsa_public: JSON.stringify(await exportJwk(rsa.publicKey)),
    rsa_private: JSON.stringify(await exportJwk(rsa.privateKey)),
    ed25519_public: JSON.stringify(await exportJwk(ed25519.publicKey)),
    ed25519_private: JSON.stringify(await exportJwk(ed25519.privateKey)),
  };
}
