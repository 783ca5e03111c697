// Another fediverse server for the tests, standing in for Mastodon: built directly on Fedify
// (memory store, no queue: what it sends goes out at once, signed), served over https on a
// loopback port with the test certificate. Its actors have RSA and Ed25519 keys made at start,
// WebFinger, profiles and inboxes that record every activity they receive; its methods act as a
// remote user would (follow, reply, edit, delete, like, boost, undo, delete the account) and send
// unsigned or badly signed posts for the 401s (test/forged-posts.ts). Served by
// test/fedify-https.ts.
import '../server/federation/fedify-globals.ts';
import { randomUUID } from 'node:crypto';
import { createFederation, generateCryptoKeyPair, MemoryKvStore, type Context } from '@fedify/fedify';
import {
  Accept, Activity, Announce, Create, Delete, Endpoints, Follow, Image, isActor, Like, Mention, Note, Person,
  PUBLIC_COLLECTION, Tombstone, Undo, Update, type Actor, type Object as ActivityObject,
} from '@fedify/fedify/vocab';
import { Temporal as TemporalPolyfill } from '@js-temporal/polyfill';
import { serveFedify } from './fedify-https.ts';
import { postBadlySigned, postUnsigned, rsaKeyPair, type BadSignature, type InboxAnswer } from './forged-posts.ts';
import { waitFor, type WaitOptions } from './wait-for.ts';

/** An activity as one of the peer's inboxes received it, its signature checked by Fedify. */
export interface ReceivedActivity {
  /** The peer's user whose inbox it came to; null: the shared inbox. */
  inbox: string | null;
  type: string;
  id: string | null;
  actor: string | null;
  /** The object's id (an Accept's: the Follow's). */
  object: string | null;
  /** The object's type when it came embedded: 'Article', 'Note', 'Follow'… */
  objectType: string | null;
  /** The body as it was posted. */
  raw: Record<string, any>;
}

export type ActivityMatch = Partial<Omit<ReceivedActivity, 'raw'>> | ((activity: ReceivedActivity) => boolean);

export interface PeerActorOptions { username: string; name?: string; summary?: string }

/** One of the peer's users as other servers see it. */
export interface PeerActor {
  username: string;
  /** Its ActivityPub id (`https://127.0.0.1:PORT/users/NAME`). */
  id: string;
  /** `@NAME@127.0.0.1:PORT`. */
  handle: string;
  name: string;
  inbox: string;
  /** Its profile page and avatar, as its Person gives them. */
  url: string;
  icon: string;
}

export interface FediversePeer {
  url: string;
  /** `127.0.0.1:PORT`, as in the handles. */
  host: string;
  actors: Record<string, PeerActor>;
  /** Every activity received, oldest first. */
  received: ReceivedActivity[];
  /** What failed inside the peer (its listeners, its dispatchers): a test can assert none. */
  errors: unknown[];
  /** The activities received so far that match. */
  activities(match: ActivityMatch): ReceivedActivity[];
  /** Waits for the first activity that matches (already received or yet to come). */
  waitForActivity(match: ActivityMatch, options?: WaitOptions): Promise<ReceivedActivity>;
  /** Who follows `username` here (actor ids), as Follow and Undo(Follow) left it. */
  followersOf(username: string): string[];
  /** An actor or object looked up as Fedify does: a URL, `acct:` URI or `@user@host` handle. */
  lookup(identifier: string): Promise<ActivityObject | null>;

  // Acts. Each resolves with the id of what it sent once the receiving inbox answered 2xx, and
  // rejects otherwise with Fedify's SendActivityError (its `statusCode`: 401, 403, 410…).
  /** Follow(target), `target` a handle or an actor URL. */
  follow(as: string, target: string): Promise<string>;
  /** Undo of a Follow, Like or Announce sent before, to whom it went. */
  undo(activityId: string): Promise<string>;
  /** Create(Note) replying to `inReplyTo`, sent to `options.to` (default: its author); the note's id. */
  reply(as: string, inReplyTo: string, contentHtml: string, options?: { to?: string }): Promise<string>;
  /** Update(Note) of one of the peer's notes, to whom its Create went. */
  updateNote(noteId: string, contentHtml: string): Promise<string>;
  /** Delete(Tombstone) of one of the peer's notes, to whom its Create went; it then answers 404. */
  deleteNote(noteId: string): Promise<string>;
  /** Like or Announce (a boost) of an object, sent to its author. */
  like(as: string, objectId: string): Promise<string>;
  announce(as: string, objectId: string): Promise<string>;
  /**
   * Delete(Person) to everyone `as` sent anything to and its followers; its actor then answers 410.
   * `goneFirst`: the account is gone before its Delete goes out (its actor and key already 410),
   * as Mastodon deletes an account and then tells the others.
   */
  deleteActor(as: string, options?: { goneFirst?: boolean }): Promise<string>;
  /**
   * Any other activity, built by the test with the peer's context and `as`'s actor id (one that
   * is another's to send, an object attributed to someone else…), sent as `as` to `to`'s inbox
   * (`to` a handle or an actor URL).
   */
  send(as: string, to: string, build: (ctx: Context<PeerData>, actor: URL) => Activity): Promise<string>;

  /** The JSON of a Create(Note) as `reply` would send it, not sent (for the two below). */
  draftReply(as: string, inReplyTo: string, contentHtml: string, options?: { to?: string }): Promise<Record<string, unknown>>;
  /** A plain POST of `activity` to `inbox`, with no signature. */
  postUnsigned(inbox: string, activity: unknown): Promise<InboxAnswer>;
  /** A POST signed under `as`'s key id, but by another key ('wrong-key') or over another body ('altered-body'). */
  postBadlySigned(as: string, inbox: string, activity: unknown, how?: BadSignature): Promise<InboxAnswer>;
  close(): Promise<void>;
}

interface PeerData {
  /** The body of the request being answered, as it came (null outside a request). */
  rawBody: string | null;
}

interface LocalActor extends PeerActorOptions {
  keys: CryptoKeyPair[];
  published: Temporal.Instant;
  gone: boolean;
  followers: Map<string, Actor>;
  /** Whom it sent anything to, by actor id. */
  contacts: Map<string, Actor>;
}

interface StoredNote {
  as: string;
  content: string;
  inReplyTo: string;
  audience: Actor;
  published: Temporal.Instant;
  updated?: Temporal.Instant;
  deleted: boolean;
}

/** A 1×1 PNG, every actor's avatar. */
const AVATAR = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Now, for `published` and `updated`: Node has no Temporal yet, Fedify takes the polyfill it uses
 * itself, and its types name the standard one. */
const now = () => TemporalPolyfill.Now.instant() as unknown as Temporal.Instant;

export async function startFediversePeer(options: {
  actors?: (string | PeerActorOptions)[];
  /** Answers every Follow with Accept (default: yes, as an unlocked Mastodon account does). */
  autoAccept?: boolean;
  /** Delivers to shared inboxes when the recipient has one (default: yes, as Mastodon does). */
  preferSharedInbox?: boolean;
} = {}): Promise<FediversePeer> {
  const autoAccept = options.autoAccept ?? true;
  const preferSharedInbox = options.preferSharedInbox ?? true;
  const received: ReceivedActivity[] = [];
  const errors: unknown[] = [];
  const actors = new Map<string, LocalActor>();
  for (const given of options.actors ?? ['alice']) {
    const actor = typeof given === 'string' ? { username: given } : given;
    const keys = [await rsaKeyPair(), await generateCryptoKeyPair('Ed25519')];
    actors.set(actor.username, { ...actor, keys, published: now(), gone: false, followers: new Map(), contacts: new Map() });
  }
  const notes = new Map<string, StoredNote>();
  const sent = new Map<string, { as: string; activity: Activity; recipients: Actor[] }>();

  const federation = createFederation<PeerData>({
    kv: new MemoryKvStore(),
    allowPrivateAddress: true,
    // Mastodon's HTTP Signatures first (Fedify falls back to RFC 9421 when refused).
    firstKnock: 'draft-cavage-http-signatures-12',
    userAgent: { software: 'beatnik-test-peer/1.0' },
  });
  const localActor = (username: string) => {
    const actor = actors.get(username);
    if (!actor) throw new Error(`the peer has no actor ${username}`);
    return actor;
  };

  federation.setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
    const actor = actors.get(identifier);
    if (!actor) return null;
    if (actor.gone) return new Tombstone({ id: ctx.getActorUri(identifier) });
    const keys = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: actor.name ?? identifier,
      summary: actor.summary ?? null,
      url: new URL(`/@${identifier}`, ctx.origin),
      icon: new Image({ url: new URL(`/avatars/${identifier}.png`, ctx.origin), mediaType: 'image/png' }),
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      followers: ctx.getFollowersUri(identifier),
      publicKey: keys[0]!.cryptographicKey,
      assertionMethods: keys.map((pair) => pair.multikey),
      manuallyApprovesFollowers: false,
      discoverable: true,
      published: actor.published,
    });
  }).setKeyPairsDispatcher((_ctx, identifier) => actors.get(identifier)?.keys ?? []);

  federation.setFollowersDispatcher('/users/{identifier}/followers', (_ctx, identifier) =>
    ({ items: [...actors.get(identifier)?.followers.values() ?? []] }));

  federation.setObjectDispatcher(Note, '/users/{identifier}/notes/{id}', (ctx, values) => {
    const id = ctx.getObjectUri(Note, values).href;
    const note = notes.get(id);
    return note && !note.deleted ? noteObject(ctx, id, note) : null;
  });

  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Activity, async (ctx, activity) => {
      const raw = JSON.parse(ctx.data.rawBody ?? '{}') as Record<string, any>;
      const embedded = typeof raw.object === 'object' && raw.object !== null ? raw.object : null;
      received.push({
        inbox: ctx.recipient,
        type: String(raw.type),
        id: activity.id?.href ?? null,
        actor: activity.actorId?.href ?? null,
        object: activity.objectId?.href ?? null,
        objectType: typeof embedded?.type === 'string' ? embedded.type : null,
        raw,
      });
      if (activity instanceof Follow) await followed(ctx, activity);
      if (activity instanceof Undo && embedded?.type === 'Follow') {
        const followed = String(embedded.object?.id ?? embedded.object);
        const target = URL.canParse(followed) ? ctx.parseUri(new URL(followed)) : null;
        if (target?.type === 'actor' && activity.actorId) actors.get(target.identifier)?.followers.delete(activity.actorId.href);
      }
    })
    .onError((_ctx, error) => { errors.push(error); });

  /** A Follow of one of the peer's users: its follower kept and, unless told not to, accepted. */
  async function followed(ctx: Context<PeerData>, follow: Follow): Promise<void> {
    const target = follow.objectId ? ctx.parseUri(follow.objectId) : null;
    if (target?.type !== 'actor' || !actors.has(target.identifier) || !follow.actorId) return;
    const follower = await follow.getActor(ctx);
    if (!follower) return;
    actors.get(target.identifier)!.followers.set(follower.id!.href, follower);
    if (!autoAccept) return;
    const accept = new Accept({ id: newId(ctx, target.identifier, 'accepts'), actor: ctx.getActorUri(target.identifier), object: follow, to: follower.id });
    await send(ctx, target.identifier, [follower], accept);
  }

  function newId(ctx: Context<PeerData>, as: string, kind: string): URL {
    return new URL(`${ctx.getActorUri(as).href}/${kind}/${randomUUID()}`);
  }

  function noteObject(ctx: Context<PeerData>, id: string, note: StoredNote): Note {
    return new Note({
      id: new URL(id),
      attribution: ctx.getActorUri(note.as),
      content: note.content,
      replyTarget: new URL(note.inReplyTo),
      url: new URL(id),
      to: PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(note.as), note.audience.id!],
      tags: [new Mention({ href: note.audience.id })],
      published: note.published,
      updated: note.updated ?? null,
    });
  }

  async function send(ctx: Context<PeerData>, as: string, recipients: Actor[], activity: Activity): Promise<string> {
    const actor = localActor(as);
    for (const recipient of recipients) actor.contacts.set(recipient.id!.href, recipient);
    await ctx.sendActivity({ identifier: as }, recipients, activity, { preferSharedInbox, immediate: true });
    sent.set(activity.id!.href, { as, activity, recipients });
    return activity.id!.href;
  }

  async function actorAt(ctx: Context<PeerData>, identifier: string): Promise<Actor> {
    const found = await ctx.lookupObject(identifier);
    if (!isActor(found)) throw new Error(`no actor found at ${identifier}`);
    return found;
  }

  /** Who wrote an object: its attributedTo, looked up. */
  async function authorOf(ctx: Context<PeerData>, objectId: string): Promise<Actor> {
    const object = await ctx.lookupObject(objectId);
    if (!object?.attributionId) throw new Error(`no object with an author found at ${objectId}`);
    return actorAt(ctx, object.attributionId.href);
  }

  async function storedReply(ctx: Context<PeerData>, as: string, inReplyTo: string, content: string, to?: string) {
    localActor(as);
    const audience = to ? await actorAt(ctx, to) : await authorOf(ctx, inReplyTo);
    const id = ctx.getObjectUri(Note, { identifier: as, id: randomUUID() }).href;
    const note: StoredNote = { as, content, inReplyTo, audience, published: now(), deleted: false };
    const create = new Create({
      id: new URL(`${id}/activity`), actor: ctx.getActorUri(as), object: noteObject(ctx, id, note),
      to: PUBLIC_COLLECTION, ccs: [ctx.getFollowersUri(as), audience.id!], published: note.published,
    });
    return { id, note, create };
  }

  function storedNote(noteId: string): StoredNote {
    const note = notes.get(noteId);
    if (!note) throw new Error(`the peer wrote no note ${noteId}`);
    return note;
  }

  const served = await serveFedify(federation, {
    contextData: (rawBody) => ({ rawBody }),
    files: (path) => /^\/avatars\/[^/]+\.png$/.test(path) ? { type: 'image/png', body: AVATAR } : undefined,
    onError: (error) => errors.push(error),
  });
  const { url, host } = served;
  const context = () => federation.createContext(new URL(url), { rawBody: null });

  const matching = (match: ActivityMatch) => received.filter(typeof match === 'function' ? match
    : (activity) => Object.entries(match).every(([field, value]) => activity[field as keyof ReceivedActivity] === value));
  const peerActors = Object.fromEntries([...actors.values()].map((actor): [string, PeerActor] => [actor.username, {
    username: actor.username,
    id: `${url}/users/${actor.username}`,
    handle: `@${actor.username}@${host}`,
    name: actor.name ?? actor.username,
    inbox: `${url}/users/${actor.username}/inbox`,
    url: `${url}/@${actor.username}`,
    icon: `${url}/avatars/${actor.username}.png`,
  }]));

  return {
    url,
    host,
    actors: peerActors,
    received,
    errors,
    activities: matching,
    async waitForActivity(match, waitOptions = {}) {
      const what = typeof match === 'function' ? match.toString() : JSON.stringify(match);
      await waitFor(() => matching(match).length > 0, { what: `an activity ${what} at the peer`, ...waitOptions });
      return matching(match)[0]!;
    },
    followersOf: (username) => [...localActor(username).followers.keys()],
    lookup: (identifier) => context().lookupObject(identifier),

    async follow(as, target) {
      const ctx = context();
      const actor = await actorAt(ctx, target);
      return send(ctx, as, [actor], new Follow({ id: newId(ctx, as, 'follows'), actor: ctx.getActorUri(as), object: actor.id, to: actor.id }));
    },
    async undo(activityId) {
      const ctx = context();
      const done = sent.get(activityId);
      if (!done) throw new Error(`the peer sent no activity ${activityId}`);
      const undo = new Undo({ id: newId(ctx, done.as, 'undos'), actor: ctx.getActorUri(done.as), object: done.activity, tos: done.recipients.map((r) => r.id!) });
      return send(ctx, done.as, done.recipients, undo);
    },
    async reply(as, inReplyTo, contentHtml, replyOptions = {}) {
      const ctx = context();
      const { id, note, create } = await storedReply(ctx, as, inReplyTo, contentHtml, replyOptions.to);
      notes.set(id, note);
      await send(ctx, as, [note.audience], create);
      return id;
    },
    async updateNote(noteId, contentHtml) {
      const ctx = context();
      const note = storedNote(noteId);
      Object.assign(note, { content: contentHtml, updated: now() });
      const update = new Update({
        id: newId(ctx, note.as, 'updates'), actor: ctx.getActorUri(note.as), object: noteObject(ctx, noteId, note),
        to: PUBLIC_COLLECTION, ccs: [ctx.getFollowersUri(note.as), note.audience.id!],
      });
      return send(ctx, note.as, [note.audience], update);
    },
    async deleteNote(noteId) {
      const ctx = context();
      const note = storedNote(noteId);
      note.deleted = true;
      const remove = new Delete({ id: newId(ctx, note.as, 'deletes'), actor: ctx.getActorUri(note.as), object: new Tombstone({ id: new URL(noteId) }), to: PUBLIC_COLLECTION });
      return send(ctx, note.as, [note.audience], remove);
    },
    async like(as, objectId) {
      const ctx = context();
      const author = await authorOf(ctx, objectId);
      return send(ctx, as, [author], new Like({ id: newId(ctx, as, 'likes'), actor: ctx.getActorUri(as), object: new URL(objectId), to: author.id }));
    },
    async announce(as, objectId) {
      const ctx = context();
      const author = await authorOf(ctx, objectId);
      const boost = new Announce({
        id: newId(ctx, as, 'announces'), actor: ctx.getActorUri(as), object: new URL(objectId),
        to: PUBLIC_COLLECTION, ccs: [author.id!, ctx.getFollowersUri(as)], published: now(),
      });
      return send(ctx, as, [author], boost);
    },
    async deleteActor(as, deleteOptions = {}) {
      const ctx = context();
      const actor = localActor(as);
      const everyone = new Map([...actor.contacts, ...actor.followers]);
      const remove = new Delete({ id: new URL(`${ctx.getActorUri(as).href}#delete`), actor: ctx.getActorUri(as), object: ctx.getActorUri(as), to: PUBLIC_COLLECTION });
      // Sent while its key can still be fetched (unless gone first); gone from then on.
      if (deleteOptions.goneFirst) actor.gone = true;
      const id = await send(ctx, as, [...everyone.values()], remove);
      actor.gone = true;
      return id;
    },
    async send(as, to, build) {
      const ctx = context();
      return send(ctx, as, [await actorAt(ctx, to)], build(ctx, ctx.getActorUri(as)));
    },

    async draftReply(as, inReplyTo, contentHtml, replyOptions = {}) {
      const ctx = context();
      const { create } = await storedReply(ctx, as, inReplyTo, contentHtml, replyOptions.to);
      return await create.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }) as Record<string, unknown>;
    },
    postUnsigned,
    async postBadlySigned(as, inbox, activity, how = 'wrong-key') {
      const [rsa] = await context().getActorKeyPairs(as);
      if (!rsa) throw new Error(`the peer has no actor ${as}`);
      return postBadlySigned(inbox, activity, rsa, how);
    },
    close: served.close,
  };
}
