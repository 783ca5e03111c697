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

async function newKeys(): Promise<StoredKeys> {
  const rsa = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const ed25519 = await generateCryptoKeyPair('Ed25519');
  return {
    rsa_public: JSON.stringify(await exportJwk(rsa.publicKey)),
    rsa_private: JSON.stringify(await exportJwk(rsa.privateKey)),
    ed25519_public: JSON.stringify(await exportJwk(ed25519.publicKey)),
    ed25519_private: JSON.stringify(await exportJwk(ed25519.privateKey)),
  };
}
