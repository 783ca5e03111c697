// Cache invalidations between instances sharing a PostgreSQL database. An invalidation here is
// told to the others with NOTIFY, through the pool; theirs arrive on a session of our own that
// LISTENs (a pooled connection would go back to the pool and stop listening). Notifications sent
// while that session is down are lost to it: the cache is told (`listening(false)`) and bypasses
// itself until a new session listens again, tried every second.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { DB } from '../schema.ts';
import type { Logger } from '../log.ts';
import { closeSession, openSession, SESSION_TIMEOUT_MS } from './postgres.session.ts';

const CHANNEL = 'beatnik_cache';

/** What pg_stat_activity shows for the listening session. */
export const LISTENER_SESSION = 'beatnik cache listener';

/** Invalidations in a burst of writes are told together, at most one NOTIFY per this long. */
const NOTIFY_GAP_MS = 50;
/** A NOTIFY's payload is at most 8000 bytes: past this, forgotten addresses are told as an invalidation. */
const MAX_PAYLOAD = 7_000;
const RETRY_MS = 1_000;

export interface ChannelEvents {
  /** Another instance invalidated its cache, or only these addresses in it. */
  heard(addresses?: readonly string[]): void;
  /** Whether other instances' invalidations reach this one. */
  listening(on: boolean): void;
}

export interface Channel {
  /** Tells the other instances, soon, that this one invalidated its cache (or forgot these addresses). */
  publish(addresses?: readonly string[]): void;
  /** Tells what is pending, then stops listening. */
  close(): Promise<void>;
}

/** Resolves once the first session listens, or has failed to (then it is tried again). */
export async function openCacheChannel(db: DB, url: string, log: Logger, events: ChannelEvents): Promise<Channel> {
  /** Notifications carry the sender's id: our own come back to us, and are not news. */
  const self = randomUUID();
  let closed = false;

  let session: pg.Client | undefined;
  let generation = 0;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  /** Ends the session if `mine` is still the current one; undefined if that was done already. */
  const drop = (mine: number): Promise<void> | undefined => {
    if (mine !== generation) return undefined;
    generation += 1;
    clearInterval(ping);
    const ending = session;
    session = undefined;
    events.listening(false);
    return ending ? closeSession(ending) : Promise.resolve();
  };

  const lost = (mine: number, reason: string) => {
    if (!drop(mine) || closed) return;
    log.warn({ reason }, 'cache invalidations from other instances unheard: lists bypass the cache until listening again');
    retry = setTimeout(listen, RETRY_MS);
    retry.unref();
  };

  const listen = async () => {
    const mine = generation;
    try {
      const client = await openSession(url, LISTENER_SESSION, (reason) => lost(mine, reason));
      client.on('notification', (message) => {
        if (message.channel !== CHANNEL || !message.payload) return;
        // The sender's id, then the addresses it forgot, one a line; none: it invalidated all.
        const [sender, ...addresses] = message.payload.split('\n');
        if (sender !== self) events.heard(addresses.length > 0 ? addresses : undefined);
      });
      await client.query(`LISTEN ${CHANNEL}`);
      if (mine !== generation || closed) return void closeSession(client);
      session = client;
      // A network that drops packets ends nothing: only an unanswered statement tells.
      ping = setInterval(() => client.query('SELECT 1').catch((err: Error) => lost(mine, err.message)), SESSION_TIMEOUT_MS);
      ping.unref();
      if (mine > 0) log.info('listening again for cache invalidations from other instances');
      events.listening(true);
    } catch (err) {
      lost(mine, (err as Error).message);
    }
  };
  await listen();

  let pending = false;
  /** Addresses forgotten since the last NOTIFY, while no whole invalidation is pending. */
  let forgotten = new Set<string>();
  let everything = false;
  let sending: Promise<void> | undefined;
  let wait: NodeJS.Timeout | undefined;
  let lastSent = -Infinity;
  const send = async () => {
    let payload = everything ? self : [self, ...forgotten].join('\n');
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = self;
    pending = false;
    everything = false;
    forgotten = new Set();
    lastSent = performance.now();
    try {
      await sql`SELECT pg_notify(${CHANNEL}, ${payload})`.execute(db);
    } catch (err) {
      log.warn({ err }, 'could not tell other instances of a cache invalidation');
    }
  };
  const pump = () => {
    if (!pending || sending || wait || closed) return;
    const gap = lastSent + NOTIFY_GAP_MS - performance.now();
    if (gap > 0) {
      wait = setTimeout(() => {
        wait = undefined;
        pump();
      }, gap);
      wait.unref();
      return;
    }
    sending = send().finally(() => {
      sending = undefined;
      pump();
    });
  };

  return {
    publish(addresses) {
      if (addresses && !everything) for (const address of addresses) forgotten.add(address);
      else everything = true;
      pending = true;
      pump();
    },
    async close() {
      closed = true;
      clearTimeout(wait);
      clearTimeout(retry);
      await sending;
      if (pending) await send();
      await drop(generation);
    },
  };
}
