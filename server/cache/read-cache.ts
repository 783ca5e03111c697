// A cache of public list responses (front page, latest, ranks, hashtags, authors), serialized
// once. Any successful write in this process makes every entry stale at once; a short TTL bounds
// staleness from writes made by another process (the admin CLI).
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';

export interface ReadCache {
  /** Serves from the cache, or captures the JSON the route sends. */
  middleware: RequestHandler;
  /** Everything cached so far is stale. */
  invalidate(): void;
  readonly size: number;
}

interface Entry {
  body: Buffer;
  /** Hashed once when stored: Express would hash the body (up to 50 kB) on every send. */
  etag: string;
  generation: number;
  storedAt: number;
}

export function createReadCache(options: { ttlMs: number; maxEntries: number }): ReadCache {
  const entries = new Map<string, Entry>();
  let generation = 0;

  const fresh = (entry: Entry) => entry.generation === generation && Date.now() - entry.storedAt < options.ttlMs;

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET') return next();
    const key = req.originalUrl;
    const hit = entries.get(key);
    if (hit && fresh(hit)) {
      res.type('application/json').set('ETag', hit.etag).send(hit.body);
      return;
    }
    const startedAt = generation;
    res.json = (body: unknown) => {
      const text = Buffer.from(JSON.stringify(body));
      // Only a success computed without a write in between may serve later readers.
      if (res.statusCode === 200 && startedAt === generation) {
        const etag = weakEtag(text);
        res.set('ETag', etag);
        entries.delete(key);
        entries.set(key, { body: text, etag, generation, storedAt: Date.now() });
        if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      }
      res.type('application/json');
      return res.send(text);
    };
    next();
  };

  return {
    middleware,
    invalidate() {
      generation += 1;
    },
    get size() {
      return entries.size;
    },
  };
}

/** The weak ETag Express itself would send for this body (its `etag` setting, "weak"). */
function weakEtag(body: Buffer): string {
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}
