// A fediverse server standing beside Beatnik in a test: Fedify itself (createFederation, a memory
// key–value store) served over plain http on loopback, with actors whose keys it made, that
// follow, reply, like, boost, edit and delete as any server built on Fedify does — every
// activity signed by Fedify and delivered to Beatnik's inbox for real. Beatnik fetches the
// actors and their keys from here (FEDERATION_ALLOW_PRIVATE=true). Until the shared peer of
// branch fed-peers lands, the inbox's tests use this one.
import '../../server/federation/fedify-globals.ts';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFederation, generateCryptoKeyPair, MemoryKvStore, type Context, type Federation } from '@fedify/fedify';

/** RSA for HTTP Signatures (2048 bits: a test need not wait for Fedify's 4096), Ed25519 for object proofs. */
export async function testKeyPairs(): Promise<CryptoKeyPair[]> {
  const rsa = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify'],
  ) as CryptoKeyPair;
  return [rsa, await generateCryptoKeyPair('Ed25519')];
}
import { Endpoints, Image, Person, type Activity } from '@fedify/vocab';

export interface PeerActor {
  name: string;
  /** Gone: its actor and key answer 404, as a deleted account's do. */
  gone?: boolean;
  keys: CryptoKeyPair[];
}

export interface InboxPeer {
  origin: string;
  federation: Federation<void>;
  actors: Map<string, PeerActor>;
  /** A context to build and send activities with. */
  context(): Context<void>;
  /** The actor's id, here. */
  actorUri(username: string): URL;
  /** Adds an actor (its keys are the peer's one set: making RSA keys is slow, and each actor signs as itself still). */
  addActor(username: string, name?: string): void;
  /** Sends `activity` from `username` to one Beatnik inbox (signed by Fedify, delivered now). */
  send(username: string, inbox: { actorUri: string; inboxUrl: string }, activity: Activity): Promise<void>;
  /** Activities this peer's own inbox was posted (Beatnik's Accepts, if any reach it). */
  received: unknown[];
  close(): Promise<void>;
}

function requestOf(req: IncomingMessage, origin: string, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method, headers, body: body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? new Uint8Array(body) : undefined,
  });
}

export async function startInboxPeer(): Promise<InboxPeer> {
  let handle: (req: IncomingMessage, body: Buffer) => Promise<Response> = async () => new Response(null, { status: 503 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks)).then(async (response) => {
        res.statusCode = response.status;
        response.headers.forEach((value, name) => res.setHeader(name, value));
        res.end(Buffer.from(await response.arrayBuffer()));
      }, (err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const actors = new Map<string, PeerActor>();
  const received: unknown[] = [];
  const keys = await testKeyPairs();

  const federation = createFederation<void>({
    kv: new MemoryKvStore(),
    origin,
    allowPrivateAddress: true,
    // Beatnik checks the host a draft-cavage signature names against the request's Host header.
    firstKnock: 'draft-cavage-http-signatures-12',
  });
  federation.setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
    const actor = actors.get(identifier);
    if (!actor || actor.gone) return null;
    const keys = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: actor.name,
      url: new URL(`/@${identifier}`, origin),
      icon: new Image({ url: new URL(`/avatars/${identifier}.png`, origin) }),
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: keys[0]?.cryptographicKey ?? null,
      assertionMethods: keys.map((key) => key.multikey),
    });
  }).setKeyPairsDispatcher(async (_ctx, identifier) => {
    const actor = actors.get(identifier);
    return actor && !actor.gone ? actor.keys : [];
  });
  // Its actors' inboxes exist (Beatnik keeps them), though nothing here acts on what arrives.
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox');

  handle = async (req, body) => {
    if (req.method === 'POST') received.push(JSON.parse(body.toString('utf8') || 'null'));
    return federation.fetch(requestOf(req, origin, body), { contextData: undefined });
  };

  const context = () => federation.createContext(new URL(origin), undefined);
  return {
    origin,
    federation,
    actors,
    received,
    context,
    actorUri: (username) => context().getActorUri(username),
    addActor(username, name = username) {
      actors.set(username, { name, keys });
    },
    async send(username, inbox, activity) {
      await context().sendActivity({ identifier: username }, { id: new URL(inbox.actorUri), inboxId: new URL(inbox.inboxUrl) }, activity, { immediate: true });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
