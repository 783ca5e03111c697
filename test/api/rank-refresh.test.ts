// The ranking refresh runs off the request path (issue 14, item 6): on SQLite in a child process
// with its own connection, writing fresh tables in short transactions and swapping them in. A
// refresh is held up here the way a long transaction of the admin CLI would hold it: another
// connection keeps SQLite's write lock until the test lets go.
import assert from 'node:assert/strict';
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { databasePath, openDatabase } from '../../server/db.ts';
import type { DB } from '../../server/schema.ts';
import { refreshRanksNow, type RankRefresh } from '../../server/ranks/ranks.scheduler.ts';
import { rankScore } from '../../server/ranks/ranks.score.ts';
import { refreshRanksInChild } from '../../server/sqlite/sqlite.ranks-refresh.ts';
import type { FromRanksWorker } from '../../server/sqlite/sqlite.ranks-worker.ts';
import { rebuildRanks } from '../../server/sqlite/sqlite.ranks-rebuild.ts';
import { childProcesses, running } from '../child-processes.ts';
import { isTimerFired, type TimerFired } from '../child-timers.ts';
import { createUser, multipart, sqlRows, startTestServer, type TestServer } from '../helpers.ts';
import { logSink, type LogLine } from '../log-sink.ts';
import { waitFor } from '../wait-for.ts';
import { articleFields, createPost } from './factories.ts';
import { onPostgres } from '../postgres-databases.ts';

/** The SQLite refresh (a child process): on PostgreSQL the refresh is the database's own
 * statements, run by the leading instance (test/api/instances.test.ts). */
const sqliteOnly = { skip: onPostgres && 'the SQLite refresh' };

/** Posts with ratings, a comment, a visit and an older date, one archived: each scores differently. */
async function addPosts(server: TestServer): Promise<number[]> {
  const author = await createUser(server);
  const reader = await createUser(server);
  const ids: number[] = [];
  for (let i = 0; i < 5; i += 1) ids.push((await createPost(server, author)).id);
  await server.api('POST', `/api/posts/${ids[0]}/rate`, { token: reader.token, json: { rating: 5 } });
  await server.api('POST', `/api/posts/${ids[1]}/rate`, { token: reader.token, json: { rating: 1 } });
  await server.api('POST', `/api/posts/${ids[1]}/comments`, { token: reader.token, json: { content: 'Why?' } });
  await server.api('GET', `/api/posts/${ids[2]}`, { token: reader.token });
  await server.ctx.db.updateTable('posts').set({ created_at: new Date(Date.now() - 20 * 86_400_000).toISOString() })
    .where('id', '=', ids[3]!).execute();
  await server.api('PUT', `/api/posts/${ids[4]}/archive`, { token: author.token });
  return ids;
}

/** A data directory holding posts, its server closed. */
async function dataDirWithPosts(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-ranks-'));
  const server = await startTestServer({ config: { dataDir } });
  await addPosts(server);
  await server.close();
  return dataDir;
}

/** Takes SQLite's write lock on a connection of its own and keeps it until `release()`. */
async function holdWriteLock(dataDir: string): Promise<{ release(): Promise<void> }> {
  const db = openDatabase(databasePath(dataDir));
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => { held = resolve; });
  const transaction = db.transaction().execute(async () => {
    held();
    await released;
  });
  await holding;
  let releasing: Promise<void> | undefined;
  return {
    release: () => releasing ??= (async () => {
      release();
      await transaction;
      await db.destroy();
    })(),
  };
}

const messages = (lines: LogLine[]) => lines.map((line) => line.msg);

/** The ranking refresh processes `parent` started that are still running. */
const refreshProcesses = (parent = process.pid) => childProcesses('sqlite.ranks-worker', parent);

/** The one refresh process `parent` runs, once it has started. */
async function refreshProcess(parent = process.pid): Promise<number> {
  // A loaded machine (CI runs two Node versions side by side) may take long to spawn it.
  await waitFor(() => refreshProcesses(parent).length === 1, { timeout: 30_000, what: 'the refresh process to start' });
  return refreshProcesses(parent)[0]!;
}

/** Each table's rows, for comparing before and after. */
async function rankTables(db: DB): Promise<{ ranks: unknown[]; order: unknown[]; tables: string[] }> {
  return {
    ranks: await sqlRows(db, 'SELECT * FROM post_ranks ORDER BY post_id'),
    order: await sqlRows(db, 'SELECT * FROM post_rank_order ORDER BY score, post_id'),
    tables: (await sqlRows<{ name: string }>(db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'post_rank%' ORDER BY name`))
      .map((row) => row.name),
  };
}

test('requests are answered while a refresh is under way', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const lock = await holdWriteLock(dataDir);
  const sink = logSink();
  const server = await startTestServer({ config: { dataDir }, env: { LOG_LEVEL: 'info' }, logTo: sink.stream, duringStartupRefresh: true });
  let refreshEnded = false;
  void server.startupRefresh.then(() => { refreshEnded = true; });
  try {
    try {
      const health = await server.api('GET', '/api/health');
      assert.equal(health.status, 200);
      const ranks = await server.api('GET', '/api/ranks');
      assert.equal(ranks.status, 200);
      assert.equal(ranks.body.posts.length, 4, 'the scores of the last refresh are served meanwhile');
      assert.equal(refreshEnded, false, 'the refresh was still under way (waiting for the write lock)');
    } finally {
      await lock.release();
    }
    await server.startupRefresh;
    assert.deepEqual(messages(sink.lines).filter((msg) => String(msg).startsWith('rankings')), ['rankings refreshed']);
    assert.equal(sink.lines.find((line) => line.msg === 'rankings refreshed')!.posts, 4);
  } finally {
    await server.stop();
  }
});

test('scores after a refresh in the child process are the TypeScript rule\'s, in both tables, and The Pulse reads them', sqliteOnly, async () => {
  const server = await startTestServer();
  try {
    const ids = await addPosts(server);
    await refreshRanksNow(server.ctx, refreshRanksInChild(databasePath(server.dataDir), server.ctx.db), new AbortController().signal);
    const rows = await sqlRows<{
      id: number; visits: number; ratings_count: number; ratings_sum: number; comments_count: number; created_at: string;
      score: number | null; computed_at: string | null;
    }>(server.ctx.db, `SELECT p.id, p.visits, p.ratings_count, p.ratings_sum, p.comments_count, p.created_at, r.score, r.computed_at
      FROM posts p LEFT JOIN post_ranks r ON r.post_id = p.id ORDER BY p.id`);
    assert.deepEqual(rows.map((row) => row.id), ids);
    const archived = rows.pop()!;
    assert.equal(archived.score, null, 'an archived post has no score');
    const [computedAt] = new Set(rows.map((row) => row.computed_at));
    assert.equal(new Set(rows.map((row) => row.computed_at)).size, 1, 'every score is for the same moment');
    for (const row of rows) {
      const expected = rankScore({
        visits: row.visits, ratingsCount: row.ratings_count, ratingsSum: row.ratings_sum,
        comments: row.comments_count, createdAt: row.created_at,
      }, Date.parse(computedAt!));
      assert.equal(row.score, expected, `post ${row.id}`);
    }
    assert.equal(new Set(rows.map((row) => row.score)).size, 4, 'the posts score differently');

    const order = await sqlRows<{ score: number; post_id: number }>(server.ctx.db,
      'SELECT score, post_id FROM post_rank_order ORDER BY score DESC, post_id DESC');
    const byScore = [...rows].sort((a, b) => b.score! - a.score! || b.id - a.id);
    assert.deepEqual(order, byScore.map((row) => ({ score: row.score, post_id: row.id })));
    const pulse = await server.api('GET', '/api/ranks');
    assert.deepEqual(pulse.body.posts.map((post: { id: number }) => post.id), byScore.map((row) => row.id));
    assert.deepEqual(refreshProcesses(), [], 'the child has ended');
  } finally {
    await server.stop();
  }
});

test('a post published or deleted during a refresh: the new one keeps its score, the deleted one shows nowhere', sqliteOnly, async () => {
  const server = await startTestServer();
  const refresher = openDatabase(databasePath(server.dataDir)); // a connection of its own, as the worker's
  try {
    const author = await createUser(server);
    const kept = await createPost(server, author);
    const doomed = await createPost(server, author);
    let published: { id: number } | undefined;
    // Between the refresh's first two transactions: its scores are being written, not swapped in yet.
    const result = await rebuildRanks(refresher, async () => {
      if (!published) {
        published = await createPost(server, author);
        assert.equal((await server.api('DELETE', `/api/posts/${doomed.id}`, { token: author.token })).status, 200);
      }
      return true;
    });
    assert.deepEqual(result, { posts: 2, complete: true });
    const ranked = await sqlRows<{ post_id: number }>(server.ctx.db, 'SELECT post_id FROM post_ranks ORDER BY post_id');
    assert.deepEqual(ranked.map((row) => row.post_id), [kept.id, published!.id]);
    const ordered = await sqlRows<{ post_id: number }>(server.ctx.db, 'SELECT post_id FROM post_rank_order ORDER BY post_id');
    assert.deepEqual(ordered.map((row) => row.post_id), [kept.id, published!.id]);
    server.ctx.readCache?.invalidate();
    const pulse = await server.api('GET', '/api/ranks');
    assert.deepEqual(pulse.body.posts.map((post: { id: number }) => post.id).sort(), [kept.id, published!.id].sort());
    assert.deepEqual((await rankTables(server.ctx.db)).tables, ['post_rank_order', 'post_ranks'], 'nothing left over');
  } finally {
    await refresher.destroy();
    await server.stop();
  }
});

test('a draft published during a refresh (an older id, already past) is scored as it was published', sqliteOnly, async () => {
  const server = await startTestServer();
  const refresher = openDatabase(databasePath(server.dataDir));
  try {
    const author = await createUser(server);
    const kept = await createPost(server, author);
    const saved = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ ...articleFields(), draft: 'true' }) });
    const draft = saved.body as { id: number };
    const after = await createPost(server, author); // the draft's id is below the refresh's highest
    let published: { created_at: string } | undefined;
    const result = await rebuildRanks(refresher, async () => {
      if (!published) {
        const res = await server.api('POST', `/api/posts/${draft.id}/publish`, { token: author.token });
        assert.equal(res.status, 200);
        published = res.body;
      }
      return true;
    });
    assert.deepEqual(result, { posts: 2, complete: true });
    const ranked = await sqlRows<{ post_id: number; computed_at: string }>(server.ctx.db, 'SELECT post_id, computed_at FROM post_ranks ORDER BY post_id');
    assert.deepEqual(ranked.map((row) => row.post_id), [kept.id, draft.id, after.id]);
    assert.equal(ranked[1]!.computed_at, published!.created_at, 'the score it was published with');
    const ordered = await sqlRows<{ post_id: number }>(server.ctx.db, 'SELECT post_id FROM post_rank_order ORDER BY post_id');
    assert.deepEqual(ordered.map((row) => row.post_id), [kept.id, draft.id, after.id], 'once each in the order');
    server.ctx.readCache?.invalidate();
    const pulse = await server.api('GET', '/api/ranks');
    assert.deepEqual(pulse.body.posts.map((post: { id: number }) => post.id).sort(), [kept.id, draft.id, after.id].sort());
  } finally {
    await refresher.destroy();
    await server.stop();
  }
});

test('closing the server stops a refresh under way, waits for it, and keeps the previous scores', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const file = openDatabase(databasePath(dataDir));
  const before = await rankTables(file);
  await file.destroy();
  const lock = await holdWriteLock(dataDir);
  const sink = logSink();
  const server = await startTestServer({ config: { dataDir }, env: { LOG_LEVEL: 'info' }, logTo: sink.stream, duringStartupRefresh: true });
  let closed = false;
  const closing = server.close().then(() => { closed = true; });
  await waitFor(() => !server.server.listening, { what: 'the server to stop listening' });
  assert.equal(closed, false, 'close waits for the refresh, which waits for the lock');
  await lock.release();
  await closing;
  assert.ok(messages(sink.lines).includes('rankings refresh stopped for shutdown'), JSON.stringify(messages(sink.lines)));
  assert.ok(!messages(sink.lines).includes('rankings refresh failed'));
  const after = openDatabase(databasePath(dataDir));
  try {
    assert.deepEqual(await rankTables(after), before);
  } finally {
    await after.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a refresh that fails is logged, and the server goes on serving the previous scores', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const file = openDatabase(databasePath(dataDir));
  // What a later migration might add: the refresh would lose the index with the table it swaps out.
  await sql`CREATE INDEX post_ranks_computed ON post_ranks(computed_at)`.execute(file);
  await file.destroy();
  const sink = logSink();
  const server = await startTestServer({ config: { dataDir }, env: { LOG_LEVEL: 'info' }, logTo: sink.stream });
  try {
    const failed = sink.lines.find((line) => line.msg === 'rankings refresh failed') as { level: number; err: { message: string } };
    assert.equal(failed?.level, 50);
    assert.match(failed.err.message, /post_ranks has indexes \(post_ranks_computed\) that a ranking refresh would drop/);
    assert.equal((await server.api('GET', '/api/health')).status, 200);
    assert.equal((await server.api('GET', '/api/ranks')).body.posts.length, 4);

    await sql`DROP INDEX post_ranks_computed`.execute(server.ctx.db);
    await refreshRanksNow(server.ctx, refreshRanksInChild(databasePath(dataDir), server.ctx.db), new AbortController().signal);
    assert.equal(sink.lines.at(-1)!.msg, 'rankings refreshed');
  } finally {
    await server.stop();
  }
});

test('a child that cannot open the database rejects with its error', sqliteOnly, async () => {
  const server = await startTestServer();
  try {
    // A directory is no database file: the child fails before its refresh begins.
    const refresh = refreshRanksInChild(server.dataDir, server.ctx.db);
    await assert.rejects(refresh(new AbortController().signal), /unable to open database file|directory/i);
  } finally {
    await server.stop();
  }
});

test('a refresh aborted under way stops after its batch, keeps the previous scores, and its process ends', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const server = await startTestServer({ config: { dataDir } });
  try {
    const before = await rankTables(server.ctx.db);
    const lock = await holdWriteLock(dataDir);
    const stopping = new AbortController();
    const refreshing = refreshRanksInChild(databasePath(dataDir), server.ctx.db)(stopping.signal);
    const child = await refreshProcess();
    stopping.abort(); // told while the child waits for the lock, or is still starting
    await lock.release();
    const result = await refreshing;
    assert.deepEqual({ ...result, ms: 0 }, { posts: 4, pruned_visits: 0, complete: false, ms: 0 }, 'one batch scored, then stopped');
    assert.deepEqual(await rankTables(server.ctx.db), before);
    assert.equal(running(child), false);
  } finally {
    await server.stop();
  }
});

test('a SIGTERM to the refresh process (systemd\'s stop, Ctrl-C: the whole group) stops it as the server\'s stop does, not a failure', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const sink = logSink();
  const server = await startTestServer({ config: { dataDir }, env: { LOG_LEVEL: 'info' }, logTo: sink.stream });
  try {
    const before = await rankTables(server.ctx.db);
    const logged = sink.lines.length;
    const lock = await holdWriteLock(dataDir);
    const refresh = refreshRanksInChild(databasePath(dataDir), server.ctx.db);
    const refreshing = refreshRanksNow(server.ctx, refresh, new AbortController().signal);
    const child = await refreshProcess();
    process.kill(child, 'SIGTERM'); // while it starts, or waits for the lock
    await lock.release();
    await refreshing;
    assert.deepEqual(sink.lines.slice(logged).map((line) => [line.level, line.msg]), [[30, 'rankings refresh stopped for shutdown']],
      'not "rankings refresh failed"');
    assert.deepEqual(await rankTables(server.ctx.db), before, 'the previous scores kept');
    await waitFor(() => !running(child), { what: 'the process to end' });
  } finally {
    await server.stop();
  }
});

test('a refresh process that dies is a refresh failure, logged; the server serves on and the next refresh works', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const sink = logSink();
  const server = await startTestServer({ config: { dataDir }, env: { LOG_LEVEL: 'info' }, logTo: sink.stream });
  try {
    const lock = await holdWriteLock(dataDir);
    const refresh = refreshRanksInChild(databasePath(dataDir), server.ctx.db);
    const refreshing = refreshRanksNow(server.ctx, refresh, new AbortController().signal);
    process.kill(await refreshProcess(), 'SIGKILL');
    await refreshing;
    await lock.release();
    const failed = sink.lines.at(-1) as { msg: string; level: number; err: { message: string } };
    assert.equal(failed.msg, 'rankings refresh failed');
    assert.equal(failed.level, 50);
    assert.equal(failed.err.message, 'the ranking refresh process was killed by SIGKILL');
    assert.equal((await server.api('GET', '/api/health')).status, 200);
    assert.equal((await server.api('GET', '/api/ranks')).body.posts.length, 4);

    await refreshRanksNow(server.ctx, refresh, new AbortController().signal);
    assert.equal(sink.lines.at(-1)!.msg, 'rankings refreshed');
    assert.deepEqual(refreshProcesses(), []);
  } finally {
    await server.stop();
  }
});

test('the refresh process ends when the server dies, leaving the previous scores', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const file = databasePath(dataDir);
  const db = openDatabase(file);
  const before = await rankTables(db);
  await db.destroy();
  const lock = await holdWriteLock(dataDir);
  const url = (module: string) => JSON.stringify(new URL(module, import.meta.url).href);
  // A server reduced to its refresh, started and then killed with no chance to clean up.
  const server = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
    import { openDatabase } from ${url('../../server/db.ts')};
    import { refreshRanksInChild } from ${url('../../server/sqlite/sqlite.ranks-refresh.ts')};
    const file = ${JSON.stringify(file)};
    void refreshRanksInChild(file, openDatabase(file))(new AbortController().signal);
    setInterval(() => {}, 1000);`], { stdio: 'inherit' });
  try {
    const child = await refreshProcess(server.pid);
    server.kill('SIGKILL');
    await lock.release();
    await waitFor(() => !running(child), { what: 'the orphaned refresh process to end' });
    const after = openDatabase(file);
    try {
      assert.deepEqual(await rankTables(after), before, 'it stopped at its first batch and dropped its fresh tables');
    } finally {
      await after.destroy();
    }
  } finally {
    server.kill('SIGKILL');
    await lock.release();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the refresh process waits between batches while the server says a write waits for the lock', sqliteOnly, async () => {
  const dataDir = await dataDirWithPosts();
  const file = databasePath(dataDir);
  const db = openDatabase(file);
  // Held until the count is on its way, so the child reads it after its first batch.
  const lock = await holdWriteLock(dataDir);
  // The process alone, with the test in the server's place; it reports its timers firing, which
  // while it waits are its looks at the count (test/child-timers.ts).
  const child = fork(new URL('../../server/sqlite/sqlite.ranks-worker.ts', import.meta.url), [file],
    { execArgv: ['--import', 'tsx', '--import', new URL('../child-timers.ts', import.meta.url).href] });
  const answers: FromRanksWorker[] = [];
  let looks = 0;
  child.on('message', (message: FromRanksWorker | TimerFired) => {
    if (isTimerFired(message)) looks += 1;
    else answers.push(message);
  });
  try {
    await waitFor(() => answers.length > 0, { what: 'the child to listen' });
    child.send({ waiting: 1 });
    await lock.release();
    const scored = async () => (await sqlRows(db, `SELECT 1 FROM sqlite_master WHERE name = 'post_ranks_next'`)).length > 0
      && (await sqlRows(db, 'SELECT * FROM post_ranks_next')).length === 4;
    await waitFor(scored, { what: 'the first batch' });
    // The child must do nothing for three of its looks at the count (a child going on would
    // answer instead, and end the wait early).
    const since = looks;
    await waitFor(() => looks >= since + 3 || answers.length > 1, { what: 'three looks at the count' });
    assert.deepEqual(answers, [{ listening: true }], 'no answer yet');
    assert.deepEqual(await sqlRows(db, 'SELECT * FROM post_rank_order_next'), [], 'no batch after the first');
    child.send({ waiting: 0 });
    await once(child, 'exit');
    assert.deepEqual(answers.slice(1), [{ result: { posts: 4, pruned_visits: 0, complete: true } }]);
  } finally {
    child.kill();
    await lock.release();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
