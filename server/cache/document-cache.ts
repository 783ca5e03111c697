// Public documents other than the JSON lists — feeds, sitemaps — rendered once and kept with
// their validators and compressed copies. They are made from the same data as the lists, so they
// go stale exactly when the read cache's entries do (read-cache.ts: any write through the API,
// another instance's write heard on PostgreSQL, or the time to live for writes made elsewhere).
import type { Request, Response } from 'express';
import { encodedAlready, sendEncoded, type Encoding } from '../compress.ts';
import { weakEtag, type ReadCache } from './read-cache.ts';

/** What a route renders: the body, its media type and, when it has one, its last change. */
export interface DocumentSource {
  body: string;
  /** Content-Type, charset included. */
  type: string;
  lastModified?: Date;
}

export interface CachedDocument {
  body: Buffer;
  type: string;
  /** Weak: every encoding of a document shares one tag. */
  etag: string;
  /** Whole seconds, as Last-Modified and If-Modified-Since count. */
  lastModified?: string;
  encoded: Partial<Record<Encoding, Buffer>>;
}

export interface DocumentCache {
  /** The document under `key`, built by `build` unless a fresh copy is kept (or being built). */
  get(key: string, build: () => Promise<DocumentSource>): Promise<CachedDocument>;
}

interface Slot {
  generation: number;
  startedAt: number;
  document: Promise<CachedDocument>;
  bytes: number;
}

export function toCachedDocument(source: DocumentSource): CachedDocument {
  const body = Buffer.from(source.body);
  return {
    body,
    type: source.type,
    etag: weakEtag(body),
    lastModified: source.lastModified?.toUTCString(),
    encoded: {},
  };
}

/**
 * Without a read cache (or while it may not be used: an instance that cannot hear the others),
 * every request builds its document. Readers asking while a document is built wait for that one
 * build instead of starting their own. At most `maxBytes` of bodies are kept, oldest use first out.
 */
export function createDocumentCache(readCache: ReadCache | undefined, options: { maxBytes: number }): DocumentCache {
  const slots = new Map<string, Slot>();
  let bytes = 0;

  const drop = (key: string, slot: Slot) => {
    if (slots.get(key) !== slot) return;
    slots.delete(key);
    bytes -= slot.bytes;
  };

  return {
    async get(key, build) {
      const generation = readCache?.generation();
      if (readCache === undefined || generation === undefined) return toCachedDocument(await build());
      const kept = slots.get(key);
      // A reader who waits for a build under way is answered by it: a hit too.
      const hit = kept !== undefined && kept.generation === generation && Date.now() - kept.startedAt < readCache.ttlMs;
      readCache.counts.documents[hit ? 'hits' : 'misses'] += 1;
      if (hit) {
        slots.delete(key);
        slots.set(key, kept); // most recently used last
        return kept.document;
      }
      if (kept) drop(key, kept);
      const slot: Slot = { generation, startedAt: Date.now(), document: build().then(toCachedDocument), bytes: 0 };
      slots.set(key, slot);
      try {
        const document = await slot.document;
        // Built across a write: correct for this reader, who asked before it ended, not for later ones.
        if (readCache.generation() !== generation) drop(key, slot);
        else if (slots.get(key) === slot) {
          slot.bytes = document.body.length;
          bytes += slot.bytes;
          for (const [oldKey, old] of slots) {
            if (bytes <= options.maxBytes) break;
            drop(oldKey, old);
          }
        }
        return document;
      } catch (err) {
        drop(key, slot);
        throw err;
      }
    },
  };
}

/**
 * Answers with a document: its validators, a 304 when the reader's copy is current (If-None-Match,
 * else If-Modified-Since), otherwise the body in the encoding the reader prefers.
 */
export function sendDocument(req: Request, res: Response, document: CachedDocument): void {
  res.setHeader('Content-Type', document.type);
  res.setHeader('ETag', document.etag);
  if (document.lastModified) res.setHeader('Last-Modified', document.lastModified);
  // Readers may keep a copy but ask again each time: a 304 costs little, a stale feed misleads.
  res.setHeader('Cache-Control', 'no-cache');
  res.vary('Accept-Encoding');
  if (req.fresh) {
    encodedAlready(res);
    res.status(304).end();
    return;
  }
  sendEncoded(req, res, document.body, document.encoded);
}
