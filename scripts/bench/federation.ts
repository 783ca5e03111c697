// Publishing with federation on (issue 31): the bench's writers followed from two other servers,
// so that every publication really queues its Create in its transaction, and the server's own
// runner signs and delivers them meanwhile, over https, to a sink standing in for those servers
// (it answers 202 and checks nothing): the row's CPU is the publications' and their deliveries'.
// The sink runs in the bench's process, on loopback (FEDERATION_ALLOW_PRIVATE), with the test
// certificate, which the server it starts trusts through NODE_EXTRA_CA_CERTS.
import '../../server/federation/fedify-globals.ts';
import { createServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { nowIso } from '../../server/db.ts';
import { actorKeyPairs } from '../../server/federation/federation.keys.ts';
import type { DB } from '../../server/schema.ts';
import { testCertificate } from '../../test/test-certificate.ts';
import { withDatabase } from './data.ts';
import { cpuMs } from './processes.ts';
import { benchArticle } from './rows.ts';

export const FEDERATED_PUBLISH_ROW = 'POST /api/posts (publishes, federation on)';

/** Followers elsewhere of each writer: two on one server, one on another (two deliveries a publication). */
export const INBOXES_PER_PUBLICATION = 2;
const FOLLOWERS = [{ server: 'a', name: 'reader1' }, { server: 'a', name: 'reader2' }, { server: 'b', name: 'reader3' }];

export interface DeliverySink {
  url: string;
  /** Deliveries received so far. */
  received(): number;
  /** Those of one activity type ('Create'). */
  receivedOf(type: string): number;
  close(): Promise<void>;
}

/** The other servers' inboxes: every POST answered 202, its body read and dropped. */
export async function startDeliverySink(): Promise<DeliverySink> {
  const { key, cert } = testCertificate();
  let received = 0;
  const byType = new Map<string, number>();
  const server: HttpsServer = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') {
        received += 1;
        const type = /"type":"(\w+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? 'Activity';
        byType.set(type, (byType.get(type) ?? 0) + 1);
      }
      res.writeHead(req.method === 'POST' ? 202 : 404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    receivedOf: (type) => byType.get(type) ?? 0,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** The server's settings for the row: federation on, the sink reachable on loopback. */
export function federationEnv(): Record<string, string> {
  testCertificate(); // sets NODE_EXTRA_CA_CERTS, which the server inherits
  return { FEDERATION: 'on', PUBLIC_URL: 'https://bench.example', FEDERATION_ALLOW_PRIVATE: 'true', NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS! };
}

/**
 * Makes each writer followed from the sink's two servers, as accepted Follows leave them, and
 * gives each its keys (an author followed elsewhere has them: its Accept was signed). The sink's
 * address changes every run: the actors' inboxes are pointed at it again.
 */
export async function followWritersFromSink(dataDir: string, writerIds: number[], sink: DeliverySink): Promise<void> {
  await withDatabase(dataDir, async (db) => {
    const actorIds: number[] = [];
    for (const follower of FOLLOWERS) actorIds.push(await sinkActor(db, sink, follower.server, follower.name));
    for (const userId of writerIds) {
      await actorKeyPairs(db, userId);
      await db.transaction().execute(async (trx) => {
        const added = await trx.insertInto('remote_followers')
          .values(actorIds.map((actorId) => ({ user_id: userId, actor_id: actorId, follow_uri: null, created_at: nowIso() })))
          .onConflict((oc) => oc.columns(['user_id', 'actor_id']).doNothing()).executeTakeFirst();
        const count = await trx.selectFrom('remote_followers').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
        if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) await trx.updateTable('users').set({ remote_followers_count: Number(count.n) }).where('id', '=', userId).execute();
      });
    }
  });
}

async function sinkActor(db: DB, sink: DeliverySink, server: string, name: string): Promise<number> {
  const uri = `https://${server}.bench.example/users/${name}`;
  const row = {
    uri, handle: `${name}@${server}.bench.example`, domain: `${server}.bench.example`, name, url: uri,
    inbox: `${sink.url}/${server}/users/${name}/inbox`, shared_inbox: `${sink.url}/${server}/inbox`, updated_at: nowIso(),
  };
  await db.insertInto('remote_actors').values(row)
    .onConflict((oc) => oc.column('uri').doUpdateSet({ inbox: row.inbox, shared_inbox: row.shared_inbox, updated_at: row.updated_at })).execute();
  return (await db.selectFrom('remote_actors').select('id').where('uri', '=', uri).executeTakeFirstOrThrow()).id;
}

/** What the federation left in the jobs table (deliveries still waiting when the server stopped). */
export async function clearFederationJobs(dataDir: string): Promise<number> {
  return withDatabase(dataDir, async (db) => {
    // Left claimed by a server that stopped mid-delivery, or waiting: none is for another run.
    const result = await db.deleteFrom('jobs').where('kind', 'in', ['federation.send', 'federation.fedify']).executeTakeFirst();
    await db.deleteFrom('federation_deliveries').execute();
    return Number(result.numDeletedRows);
  });
}

/** How many federation jobs wait, due or not. */
export function countFederationJobs(dataDir: string): Promise<number> {
  return withDatabase(dataDir, async (db) => Number((await db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n'))
    .where('kind', 'in', ['federation.send', 'federation.fedify']).executeTakeFirstOrThrow()).n));
}

/** What `n` publications cost the server in all, made one at a time, until nothing is left queued. */
export interface Settled {
  publications: number;
  /** From the first request to the last delivery. */
  seconds: number;
  /** The server's CPU over that time, per publication, in ms. */
  cpuMsPerPublication: number;
  /** Whether the queue was empty within the time allowed. */
  settled: boolean;
}

/**
 * Publishes `n` articles one after the other, then waits (at most `timeoutS`) until the server's
 * runner has no federation job left: everything a publication costs, its request and its deliveries.
 */
export async function publishAndSettle(url: string, pid: number, dataDir: string, pool: string[], n: number, timeoutS: number): Promise<Settled> {
  const [cpuBefore, started] = [cpuMs(pid), performance.now()];
  for (let i = 0; i < n; i += 1) {
    const article = benchArticle(1_000_000 + i);
    const res = await fetch(`${url}/api/posts`, {
      method: 'POST', body: article.body, headers: { 'content-type': article.contentType, authorization: `Bearer ${pool[i % pool.length]}` },
    });
    if (res.status !== 201) throw new Error(`publishing: ${res.status} ${await res.text()}`);
  }
  let settled = false;
  while (performance.now() - started < timeoutS * 1000) {
    if (await countFederationJobs(dataDir) === 0) {
      settled = true;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    publications: n,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    cpuMsPerPublication: Math.round(((cpuMs(pid) - cpuBefore) / n) * 10) / 10,
    settled,
  };
}
