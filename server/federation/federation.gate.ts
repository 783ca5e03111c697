// The inbox's first question (federation.middleware.ts's InboxGate, DESIGN.md: "from a blocked
// server → 403, nothing stored"): is the activity's actor, or the key that signed it, a blocked
// server's or account's? Asked of the body and headers as they came, before Fedify verifies the
// signature (which would fetch the sender's key) or handles anything; no answer here is an
// acceptance, which Fedify's checks decide.
import { getDocumentLoader, type DocumentLoader } from '@fedify/fedify';
import { isActor, lookupObject } from '@fedify/vocab';
import type { AppContext } from '../context.ts';
import { BEATNIK_VERSION } from '../version.ts';
import type { InboxGate } from './federation.middleware.ts';
import { blockOfSender, type Sender } from './federation.blocks.ts';

/** How long the look-up of an actor never met may take, while its sender waits. */
const LOOKUP_TIMEOUT_MS = 5_000;

export const refuseBlockedSenders: InboxGate = async (ctx, request) => {
  const sender = senderOf(request.headers, request.body);
  const blocked = await blockOfSender(ctx.db, sender, (actor) => preferredUsername(ctx, actor));
  return blocked ? { status: 403, detail: `${blocked} is blocked on this server` } : undefined;
};

/** The body's `actor` and the signature's keyId (draft-cavage `Signature`, RFC 9421 `Signature-Input`). */
export function senderOf(headers: Headers, body: Buffer): Sender {
  const keyId = /keyId="([^"]+)"/i.exec(headers.get('signature') ?? '')?.[1]
    ?? /keyid="([^"]+)"/i.exec(headers.get('signature-input') ?? '')?.[1];
  return { actor: urlOf(actorOf(body)), keyId: urlOf(keyId) };
}

function actorOf(body: Buffer): unknown {
  let activity: unknown;
  try {
    activity = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined; // not JSON: Fedify refuses it
  }
  const actor = (activity as { actor?: unknown } | null)?.actor;
  const first = Array.isArray(actor) ? actor[0] : actor;
  return typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : first;
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
