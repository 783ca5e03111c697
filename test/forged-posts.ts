// Posts to an inbox that a server must refuse with 401, sent by plain fetch: one with no
// signature, and ones signed by Fedify's signRequest but wrongly (another key under the actor's
// key id, or a body changed after signing), and one signed soundly by a key that cannot be its
// actor's (another server's).
import '../server/federation/fedify-globals.ts';
import { signRequest } from '@fedify/fedify';

export interface InboxAnswer { status: number; body: string }

/** A plain POST of `activity`, with no signature. */
export async function postUnsigned(inbox: string, activity: unknown): Promise<InboxAnswer> {
  return answer(await fetch(inbox, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: JSON.stringify(activity) }));
}

/** Another key under the signer's key id; the body changed after signing; or signed as it is (`activity` names another actor). */
export type BadSignature = 'wrong-key' | 'altered-body' | 'as-is';

let strangerKey: Promise<CryptoKeyPair> | undefined;

/** A POST signed under `keyId` but, as `how` says, by another key, over another body, or soundly. */
export async function postBadlySigned(
  inbox: string, activity: unknown, signer: { keyId: URL; privateKey: CryptoKey }, how: BadSignature,
): Promise<InboxAnswer> {
  const body = JSON.stringify(activity);
  const key = how === 'wrong-key' ? (await (strangerKey ??= rsaKeyPair())).privateKey : signer.privateKey;
  const signed = await signRequest(
    new Request(inbox, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }),
    key, signer.keyId, { spec: 'draft-cavage-http-signatures-12' },
  );
  const sent = how === 'altered-body' ? body.replace(/}$/, ', "summary": "altered after signing"}') : body;
  return answer(await fetch(signed.url, { method: 'POST', headers: signed.headers, body: sent }));
}

/** An RSA key pair as Mastodon's: 2048 bits (Fedify's generateCryptoKeyPair makes 4096, seconds each). */
export function rsaKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true, ['sign', 'verify'],
  );
}

async function answer(response: Response): Promise<InboxAnswer> {
  return { status: response.status, body: await response.text() };
}
