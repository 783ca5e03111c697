// A cache of public list responses (front page, latest, ranks, hashtags, authors, search), of an
// article's rank on The Pulse (it changes only at a refresh, which empties the cache, or a write),
// and of the pages the server renders (server/pages/), serialized once and compressed once per
// encoding asked for. Any successful write in this process makes every entry stale at once; a short
// TTL bounds staleness from what does not (a counted visit, writes made by another process such as
// the admin CLI). A write that changes a few addresses' answers only (a counted visit: its article
// and its author's mojo ledger) forgets those (`forget`), and the rest stay. Readers who miss while the same list is being read for an earlier miss wait for
// that answer instead of reading it again: on PostgreSQL a read is not synchronous, and 50 readers
// missing at once after a write each ran the list's query (the mixed bench row fell from thousands
// of requests a second to 149). An entry that only its age made stale answers them meanwhile: they
// need not wait at all.
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { encodedAlready, sendEncoded, type Encoding } from '../compress.ts';

export interface ReadCache {
  /** Serves from the cache, or captures the JSON the route sends. */
  middleware: RequestHandler;
  /** A fresh copy of this request is stored: the cache answers it, compressed already. */
  has(req: Request): boolean;
  /** Everything cached so far is stale. */
  invalidate(): void;
  /** What is cached for these addresses (a path, or a key given to `store`) is stale; the rest stays. */
  forget(addresses: readonly string[]): void;
  readonly size: number;
  /**
   * For caches of other answers made from the same data (feeds, sitemaps: document-cache.ts):
   * a number that changes at every invalidation, or undefined while nothing may be cached.
   */
  generation(): number | undefined;
  /** How long an entry may serve at most, for what a write that bypasses the API changed. */
  readonly ttlMs: number;
  /**
   * The fresh entry stored under a key of the caller's own (a rendered page's), if any; counted
   * as a hit or a miss of `countAs` when the caller answers by it (not when it only asks).
   */
  lookup(key: string, countAs?: CountedCache): Entry | undefined;
  /** Where the data stands now: an answer computed from here may be stored if nothing is written before. */
  mark(): number;
  /** The entry for `body`, stored under `key` unless a write came since `mark` (or its address was forgotten). */
  store(key: string, mark: number, body: Buffer, type: string, memo?: unknown): Entry;
  /** Its hits and misses so far, for /metrics. */
  readonly counts: CacheCounts;
}

/**
 * What the caches answered: the public lists (with an article's rank and an author's mojo
 * ledger), the pages rendered on the server, an article's read, and the feeds and sitemaps
 * (document-cache.ts). Plain numbers, increased as requests are answered and read at a scrape
 * (server/metrics/): nothing else on the hot path.
 */
export type CountedCache = 'lists' | 'pages' | 'articles' | 'documents';
export type CacheCounts = Record<CountedCache, { hits: number; misses: number }>;

export function newCacheCounts(): CacheCounts {
  return { lists: { hits: 0, misses: 0 }, pages: { hits: 0, misses: 0 }, articles: { hits: 0, misses: 0 }, documents: { hits: 0, misses: 0 } };
}

export interface Entry {
  body: Buffer;
  /** Its Content-Type. */
  type: string;
  /** What the caller keeps beside the body (a rendered page: what every request still does). */
  memo?: unknown;
  /** Hashed once when stored: Express would hash the body (up to 50 kB) on every send. */
  etag: string;
  /** Compressed copies, made on the first request for each: hot lists are never compressed twice. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** The address `forget` names it by: the request's path, or the key the caller stored it under. */
  address: string;
  /** The mark its answer was computed from. */
  since: number;
  storedAt: number;
}

/** A list being read for a miss: readers who miss it too, before any write, wait for its answer. */
interface Pending {
  since: number;
  /** The answer, or undefined if it was not a success (then each waiter reads for itself). */
  entry: Promise<Entry | undefined>;
}

/** Addresses forgotten since the last invalidation, at most: a visit forgets two. */
const MAX_FORGOTTEN = 100_000;

/** Each cached list's path and the query parameters its answer depends on. */
export type CachedLists = Readonly<Record<string, readonly string[]>>;

/** Answers kept per address (an article's rank, an author's mojo ledger): each path its own, with
 * the query parameters it reads. */
export interface PerAddress {
  /** The Express route it is served under (app.ts), wider than `pattern`, which alone is kept. */
  route: string;
  pattern: RegExp;
  params: readonly string[];
}

export function createReadCache(options: {
  ttlMs: number; maxEntries: number; lists: CachedLists;
  perAddress?: readonly PerAddress[];
  /** The bodies kept, in bytes at most (their compressed copies add about a third): a rendered
   * page is larger than a list, and a crawler walking every article would fill the entries. */
  maxBytes?: number;
}): ReadCache {
  const entries = new Map<string, Entry>();
  const counts = newCacheCounts();
  const maxBytes = options.maxBytes ?? Infinity;
  let bytes = 0;
  /** Each request's key, made once: the compression middleware asks `has` before the route. */
  const keys = new WeakMap<Request, string | undefined>();
  const pending = new Map<string, Pending>();
  let generation = 0;
  /** Moves at every invalidation and every forgotten address: the marks answers are computed from. */
  let tick = 0;
  let invalidatedAt = 0;
  /** When each address was last forgotten, since the last invalidation (which makes them all stale). */
  const forgotten = new Map<string, number>();
  /** Computed from `since` on, an answer for `address` is still good. */
  const current = (address: string, since: number) => since >= invalidatedAt && since >= (forgotten.get(address) ?? 0);

  /**
   * The path and the known parameters only, in a fixed order: `?x=random` or a reordered query
   * cannot make every request a miss (and fill the cache with copies of one answer).
   */
  const makeKey = (req: Request): string | undefined => {
    // A reader's own list (their mutes left out) is theirs alone: never stored, never answered here.
    if (req.method !== 'GET' || req.mutedBy !== undefined) return undefined;
    const path = pathOf(req.originalUrl);
    const params = Object.hasOwn(options.lists, path) ? options.lists[path]!
      : options.perAddress?.find((address) => address.pattern.test(path))?.params;
    if (!params) return undefined;
    if (params.length === 0) return path;
    const query = req.query; // a getter that parses the query string again on every read
    return JSON.stringify([path, ...params.map((name) => query[name] ?? null)]);
  };
  const keyOf = (req: Request): string | undefined => {
    if (keys.has(req)) return keys.get(req);
    const key = makeKey(req);
    keys.set(req, key);
    return key;
  };

  const fresh = (entry: Entry) => current(entry.address, entry.since) && Date.now() - entry.storedAt < options.ttlMs;
  const drop = (key: string) => {
    bytes -= entries.get(key)?.body.length ?? 0;
    entries.delete(key);
  };

  const storeAt = (key: string, address: string, mark: number, body: Buffer, type: string, memo?: unknown): Entry => {
    const entry: Entry = { ...passingEntry(body, type), memo, address, since: mark, storedAt: Date.now() };
    // Only an answer computed without a write in between may serve later readers.
    if (!current(address, mark)) return entry;
    drop(key);
    entries.set(key, entry);
    bytes += body.length;
    // The oldest go first.
    while (entries.size > options.maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
    return entry;
  };

  const invalidate = () => {
    generation += 1;
    invalidatedAt = ++tick;
    forgotten.clear();
  };

  const middleware: RequestHandler = (req, res, next) => {
    const key = keyOf(req);
    if (key === undefined) return next();
    const hit = entries.get(key);
    if (hit && fresh(hit)) {
      counts.lists.hits += 1;
      return sendEntry(req, res, hit);
    }
    const reading = pending.get(key);
    const address = pathOf(req.originalUrl);
    if (reading && current(address, reading.since)) {
      // No write since it was stored, only its age: it answers while that one read renews it.
      if (hit && current(hit.address, hit.since)) {
        counts.lists.hits += 1;
        return sendEntry(req, res, hit);
      }
      reading.entry.then((entry) => {
        counts.lists[entry ? 'hits' : 'misses'] += 1;
        return entry ? sendEntry(req, res, entry) : next();
      }, next);
      return;
    }
    counts.lists.misses += 1;
    const startedAt = tick;
    let settle!: (entry: Entry | undefined) => void;
    const mine: Pending = { since: startedAt, entry: new Promise((resolve) => { settle = resolve; }) };
    pending.set(key, mine);
    const answered = (entry: Entry | undefined) => {
      if (pending.get(key) === mine) pending.delete(key);
      settle(entry);
    };
    // An error answered another way, or a reader gone before the answer: waiters read for themselves.
    res.on('close', () => answered(undefined));
    res.json = (body: unknown) => {
      const text = Buffer.from(JSON.stringify(body));
      if (res.statusCode !== 200) {
        answered(undefined);
        return res.type('application/json').send(text);
      }
      // Stored only if no write came in between; those who waited for it came before any such
      // write, and may have it either way.
      const entry = storeAt(key, address, startedAt, text, 'application/json; charset=utf-8');
      answered(entry);
      return sendEntry(req, res, entry);
    };
    next();
  };

  return {
    middleware,
    has(req) {
      const key = keyOf(req);
      const entry = key === undefined ? undefined : entries.get(key);
      return entry !== undefined && fresh(entry);
    },
    invalidate,
    forget(forgets) {
      // An address forgotten a hundred thousand times between two writes: start afresh instead.
      if (forgotten.size + forgets.length > MAX_FORGOTTEN) return invalidate();
      tick += 1;
      for (const address of forgets) forgotten.set(address, tick);
    },
    get size() {
      return entries.size;
    },
    generation: () => generation,
    ttlMs: options.ttlMs,
    lookup(key, countAs) {
      const entry = entries.get(key);
      const found = entry && fresh(entry) ? entry : undefined;
      if (countAs) counts[countAs][found ? 'hits' : 'misses'] += 1;
      return found;
    },
    mark: () => tick,
    store: (key, mark, body, type, memo) => storeAt(key, key, mark, body, type, memo),
    counts,
  };
}

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

/** An entry for a body sent once and kept nowhere (a page not found), to send as stored ones are. */
export function passingEntry(body: Buffer, type: string): Entry {
  return { body, type, etag: weakEtag(body), encoded: {}, address: '', since: Number.NaN, storedAt: 0 };
}

/** One weak ETag for every encoding of an entry: they are the same body. */
export function sendEntry(req: Request, res: Response, entry: Entry): Response {
  // setHeader, not res.type/res.set: on a hit these run for every request, and Express's helpers
  // look the type up and re-check the charset each time.
  res.setHeader('Content-Type', entry.type);
  res.setHeader('ETag', entry.etag);
  res.vary('Accept-Encoding');
  if (req.fresh) {
    encodedAlready(res);
    return res.status(304).end();
  }
  return sendEncoded(req, res, entry.body, entry.encoded); // marks the response encoded itself
}

/** The weak ETag Express itself would send for this body (its `etag` setting, "weak"). */
export function weakEtag(body: Buffer): string {
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}
