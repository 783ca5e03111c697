// The inbox's first questions (federation.middleware.ts's InboxGate, DESIGN.md: "from a blocked
// server → 403, nothing stored"): is the activity's actor, or the key that signed it, a blocked
// server's or account's? And could the keys that signed it be its actor's at all (their origin is
// the actor's)? Asked of the body and headers as they came, before Fedify verifies the
// signature (which would fetch the sender's key) or handles anything; no answer here is an
// acceptance, which Fedify's checks decide.
import { getDocumentLoader, type DocumentLoader } from '@fedify/fedify';
import { isActor, lookupObject } from '@fedify/vocab';
import type { AppContext } from '../context.ts';
import { BEATNIK_VERSION } from '../version.ts';
import type { InboxGate } from './federation.middleware.ts';
import { blockOfSender, type Sender } from './federation.blocks.ts';
import { ID_MAX } from './federation.remote-actors.ts';

/** How long the look-up of an actor never met may take, while its sender waits. */
const LOOKUP_TIMEOUT_MS = 5_000;

export const refuseBlockedSenders: InboxGate = async (ctx, request) => {
  const signed = signedBy(request.headers, request.body);
  if (signed.longestId > ID_MAX) return { status: 400, detail: `Ids longer than ${ID_MAX} characters are not taken` };
  const sender: Sender = { actor: signed.actor, keyId: signed.keys[0] };
  const blocked = await blockOfSender(ctx.db, sender, (actor) => preferredUsername(ctx, actor));
  if (blocked) return { status: 403, detail: `${blocked} is blocked on this server` };
  const foreign = foreignKey(signed);
  return foreign ? { status: 401, detail: foreign } : undefined;
};

/** The activity's actor and every key said to sign it: the request's, its Linked Data signature's, its proofs'. */
export interface SignedBy {
  actor?: URL;
  keys: URL[];
  /** The length of the longer of the activity's id and its object's. */
  longestId: number;
}

const AS = 'https://www.w3.org/ns/activitystreams#';
const SEC = 'https://w3id.org/security#';

export function signedBy(headers: Headers, body: Buffer): SignedBy {
  const keyId = /keyId="([^"]+)"/i.exec(headers.get('signature') ?? '')?.[1]
    ?? /keyid="([^"]+)"/i.exec(headers.get('signature-input') ?? '')?.[1];
  let activity: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) activity = parsed as Record<string, unknown>;
  } catch {
    // not JSON: Fedify refuses it
  }
  const signature = first(activity.signature ?? activity[`${SEC}signature`]);
  const proofs = [activity.proof ?? activity[`${SEC}proof`]].flat();
  const keys = [keyId, idOf(field(signature, 'creator')), ...proofs.map((proof) => idOf(field(proof, 'verificationMethod')))]
    .map(urlOf).filter((url): url is URL => url !== undefined);
  // However the JSON-LD spells it: `actor` or its full IRI, a string, `{id}` or `{"@id"}`.
  const ids = [idOf(activity), idOf(first(activity.object ?? activity[`${AS}object`]))];
  const longestId = Math.max(0, ...ids.map((id) => (typeof id === 'string' ? id.length : 0)));
  return { actor: urlOf(idOf(first(activity.actor ?? activity[`${AS}actor`]))), keys, longestId };
}

/**
 * Why the keys cannot be the actor's: Fedify takes a key document's word for its owner, so a key
 * served anywhere could sign for an actor of any server. A key of another origin than its
 * actor's is refused, as is a signed activity whose actor cannot be read (Fedify would read one).
 * Undefined when nothing is wrong, or nothing is signed (Fedify refuses that itself).
 */
export function foreignKey({ actor, keys }: SignedBy): string | undefined {
  if (keys.length === 0) return undefined;
  if (!actor) return 'The activity names no actor';
  const other = keys.find((key) => key.origin !== actor.origin);
  return other ? `The key ${other.href} is not one of ${actor.origin}'s` : undefined;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function field(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  return first(record[name] ?? record[`${SEC}${name}`]);
}

function idOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return record.id ?? record['@id'];
}

function urlOf(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const loaders = new Map<boolean, DocumentLoader>();

function loaderFor(ctx: AppContext): DocumentLoader {
  const allowPrivateAddress = ctx.config.federation.allowPrivateAddress;
  let loader = loaders.get(allowPrivateAddress);
  if (!loader) {
    loader = getDocumentLoader({ allowPrivateAddress, userAgent: { software: `Beatnik/${BEATNIK_VERSION}`, url: new URL(ctx.config.publicUrl) } });
    loaders.set(allowPrivateAddress, loader);
  }
  return loader;
}

/** An actor's preferredUsername, as its server serves it; undefined when it cannot be had. */
async function preferredUsername(ctx: AppContext, actor: URL): Promise<string | undefined> {
  try {
    const loader = loaderFor(ctx);
    const object = await lookupObject(actor, { documentLoader: loader, contextLoader: loader, signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
    return isActor(object) ? object.preferredUsername?.toString() : undefined;
  } catch (err) {
    ctx.log.debug({ err: err instanceof Error ? err.message : String(err), actor: actor.href }, 'an inbox sender could not be looked up');
    return undefined;
  }
}
