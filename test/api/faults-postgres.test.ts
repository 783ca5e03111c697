// PostgreSQL going away under load (issue 27): the server ends every connection of ours while
// writers run, or the whole cluster stops and starts again. The process must live through it,
// answer each request with a success or a 503 saying why (never a 500, never a dropped
// connection), and serve again by itself once the database is back.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { describe, test } from 'node:test';
import pg from 'pg';
import { startPostgresCluster } from '../../scripts/postgres-cluster.ts';
import { migrateToLatest } from '../../server/db.ts';
import { DATABASE_UNAVAILABLE } from '../../server/errors.ts';
import { LISTENER_SESSION } from '../../server/postgres/postgres.channel.ts';
import { openPostgres } from '../../server/postgres/postgres.database.ts';
import { SERVER_BUNDLE, apiCall, createUser, databaseEnv, spawnServer, startTestServer, stopProcess, type TestUser } from '../helpers.ts';
import { dropTestDatabase, onPostgres } from '../postgres-databases.ts';
import { waitFor } from '../wait-for.ts';
import { createPost } from './factories.ts';

const WRITERS = 16;

interface Outcome { status: number; detail?: string }

/** Runs one statement on `url` over a connection of its own. */
async function onDatabase(url: string, statement: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query(statement, params);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Writers commenting as fast as answers come, each a user of its own, until `stop()`; every
 * answer is kept, and a request that got no answer at all (the process died, a socket was
 * dropped) is kept as status 0.
 */
function startWriters(url: string, users: TestUser[], postId: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = users.map(async (user, i) => {
    let n = 0;
    while (running) {
      n += 1;
      try {
        const res = await apiCall(url, 'POST', `/api/posts/${postId}/comments`,
          { token: user.token, json: { content: `writer ${i}, comment ${n}` } });
        outcomes.push({ status: res.status, detail: res.body?.detail });
      } catch (err) {
        outcomes.push({ status: 0, detail: String((err as Error).cause ?? err) });
      }
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** What a set of outcomes held, for assertion messages: status → count. */
function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}

/** Every answer a success or the 503 that says the database is unavailable. */
function assertOnlySuccessOr503(outcomes: Outcome[]): void {
  const wrong = outcomes.filter((o) => !(o.status >= 200 && o.status < 300)
    && !(o.status === 503 && o.detail === DATABASE_UNAVAILABLE));
  assert.deepEqual(wrong.slice(0, 5), [], `answers ${JSON.stringify(tally(outcomes))}`);
}

/**
 * Users and an article made by an in-process server (cheap password hashing), which then closes;
 * the process under test is spawned on the same data directory and database (the same JWT
 * secret, so the users' tokens hold).
 */
async function prepare(options: { databaseUrl?: string } = {}) {
  const setup = await startTestServer({ config: options.databaseUrl ? { databaseUrl: options.databaseUrl } : {} });
  const users: TestUser[] = [];
  for (let i = 0; i < WRITERS; i += 1) users.push(await createUser(setup));
  const post = await createPost(setup, users[0]!);
  await setup.close();
  const databaseUrl = options.databaseUrl ?? (await databaseEnv(setup.dataDir)).DATABASE_URL!;
  const { child, url } = await spawnServer([SERVER_BUNDLE],
    { DATA_DIR: setup.dataDir, DATABASE_URL: databaseUrl, RATE_LIMITS: 'off' });
  return {
    child, url, users, postId: post.id as number, databaseUrl,
    async cleanUp() {
      if (alive(child)) assert.equal(await stopProcess(child), 0);
      rmSync(setup.dataDir, { recursive: true, force: true });
      if (!options.databaseUrl) await dropTestDatabase(databaseUrl);
    },
  };
}

/** Waits until a fresh write succeeds: the server recovered without a restart. */
async function waitForRecovery(url: string, user: TestUser, postId: number): Promise<void> {
  await waitFor(async () => (await apiCall(url, 'POST', `/api/posts/${postId}/comments`,
    { token: user.token, json: { content: 'after the outage' } })).status === 201, { timeout: 20_000, what: 'a write to succeed again' });
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

describe('PostgreSQL dropping connections mid-request', { skip: !onPostgres && 'PostgreSQL only (npm run test:pg)' }, () => {
  test('every connection of the app terminated while 16 writers run: the process lives, answers are 2xx or 503, then it recovers', async (t) => {
    const { child, url, users, postId, databaseUrl, cleanUp } = await prepare();
    const writers = startWriters(url, users, postId);
    try {
      let terminated = 0;
      for (let round = 0; round < 6 && alive(child); round += 1) {
        // Once more writes were answered since the last round: mid-request, under load.
        const seen = writers.outcomes.length;
        await waitFor(() => writers.outcomes.length >= seen + 20 || !alive(child), { timeout: 20_000, what: 'writes answered' });
        const { rowCount } = await onDatabase(databaseUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        terminated += rowCount ?? 0;
      }
      await writers.stop();
      assert.ok(alive(child), `the process died (exit ${child.exitCode}) after answers ${JSON.stringify(tally(writers.outcomes))}`);
      assert.ok(terminated >= 6, `terminated ${terminated} connections`);
      t.diagnostic(`${terminated} connections terminated; answers ${JSON.stringify(tally(writers.outcomes))}`);
      assertOnlySuccessOr503(writers.outcomes);
      await waitForRecovery(url, users[0]!, postId);
      // The cache channel listens again, so other instances' invalidations reach this one.
      await waitFor(async () => (await onDatabase(databaseUrl, `SELECT 1 FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1`, [LISTENER_SESSION])).rowCount === 1,
      { timeout: 20_000, what: 'the cache listener to reconnect' });
      assert.equal((await fetch(`${url}/api/health`)).status, 200);
    } finally {
      await writers.stop();
      await cleanUp();
    }
  });

  test('the cluster stopped (fast) and started again under writers: 503 while down, writes succeed after', async (t) => {
    const cluster = await startPostgresCluster();
    const databaseUrl = `${cluster.baseUrl}/beatnik_outage`;
    await onDatabase(`${cluster.baseUrl}/postgres`, 'CREATE DATABASE beatnik_outage');
    const db = openPostgres(databaseUrl);
    await migrateToLatest(db);
    await db.destroy();
    const { child, url, users, postId, cleanUp } = await prepare({ databaseUrl });
    const writers = startWriters(url, users, postId);
    try {
      await waitFor(() => writers.outcomes.length >= 20, { what: 'writes answered before the stop' });
      await cluster.pause();
      // While it is down: writes are answered with the 503 at once, not held.
      const answeredAtStop = writers.outcomes.length;
      await waitFor(() => writers.outcomes.length >= answeredAtStop + WRITERS + 20 || !alive(child),
        { timeout: 20_000, what: 'writes answered while the cluster is down' });
      const whileDown = writers.outcomes.slice(answeredAtStop + WRITERS);
      assert.ok(whileDown.length > 0 && whileDown.every((o) => o.status === 503), `while down: ${JSON.stringify(tally(whileDown))}`);
      await cluster.resume();
      await waitForRecovery(url, users[0]!, postId);
      await writers.stop();
      assert.ok(alive(child), `the process died (exit ${child.exitCode}) after answers ${JSON.stringify(tally(writers.outcomes))}`);
      assertOnlySuccessOr503(writers.outcomes);
      t.diagnostic(`answers ${JSON.stringify(tally(writers.outcomes))}`);
    } finally {
      await writers.stop();
      await cleanUp();
      cluster.stop();
    }
  });
});
